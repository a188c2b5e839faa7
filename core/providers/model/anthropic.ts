import Anthropic from '@anthropic-ai/sdk';
import type { ProviderConfig } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import {
  StructuredModel, correctionText, settingsFrom,
  type MeteredModelProvider, type Wire, type WireAnswer, type WireCall, type WireFailure,
} from './structured.ts';

/**
 * Anthropic Messages. Structured output by forcing one tool, `answer`, whose
 * input schema is the answer's: the API hands back the tool's input as parsed
 * JSON, so what we validate is exactly what the model filled in.
 */

const OFFICIAL_BASE_URL = 'https://api.anthropic.com';
const NO_KEY = 'no-key-configured';
const TOOL = 'answer';
const DEFAULT_MAX_TOKENS = 2048;

type InputSchema = Anthropic.Messages.Tool['input_schema'];

/**
 * A tool's input must be an object. Other answers (an array, say) are wrapped
 * in `{ value }` and unwrapped on the way back; `$defs` stay at the root so
 * that `#/$defs/…` references still resolve.
 */
function toolSchema(jsonSchema: Record<string, unknown>): { schema: InputSchema; wrapped: boolean } {
  if (jsonSchema['type'] === 'object') return { schema: jsonSchema as InputSchema, wrapped: false };
  const { $defs, ...inner } = jsonSchema;
  return {
    schema: { type: 'object', properties: { value: inner }, required: ['value'], ...($defs ? { $defs } : {}) },
    wrapped: true,
  };
}

/** The blocks of an answer, as they may be sent back in the assistant turn. */
function replayable(content: readonly Anthropic.Messages.ContentBlock[]): Anthropic.Messages.ContentBlockParam[] {
  const out: Anthropic.Messages.ContentBlockParam[] = [];
  for (const b of content) {
    if (b.type === 'tool_use') out.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
    else if (b.type === 'text' && b.text) out.push({ type: 'text', text: b.text });
  }
  // The API refuses an empty assistant turn.
  return out.length ? out : [{ type: 'text', text: '(no answer)' }];
}

function readAnswer(res: Anthropic.Messages.Message, wrapped: boolean): WireAnswer['parsed'] {
  if (res.stop_reason === 'refusal') return { ok: false, problem: 'the model refused to answer' };
  // A tool input cut off by the token limit may still parse, but it is not the whole answer.
  if (res.stop_reason === 'max_tokens') return { ok: false, problem: 'the answer was cut off at the output token limit' };
  const block = res.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use' && b.name === TOOL);
  if (!block) return { ok: false, problem: `the answer did not use the ${TOOL} tool` };
  let input: unknown = block.input;
  // Some proxies pass the input on as a JSON string.
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return { ok: false, problem: 'the answer was not valid JSON' };
    }
  }
  if (!wrapped) return { ok: true, value: input };
  if (input && typeof input === 'object' && 'value' in input) return { ok: true, value: (input as { value: unknown }).value };
  return { ok: false, problem: 'the answer has no "value" field' };
}

export function anthropicWire(cfg: ProviderConfig['model']): Wire {
  // Every setting the SDK would otherwise take from its ANTHROPIC_* variables is
  // given here (config.ts is the one reader of the environment); only
  // ANTHROPIC_CUSTOM_HEADERS, which the SDK reads whatever it is given, is not.
  // No OpenTelemetry: without this the SDK decides from ANTHROPIC_OPEN_TELEMETRY*.
  const client = new Anthropic({
    baseURL: cfg.baseUrl ?? OFFICIAL_BASE_URL,
    apiKey: cfg.apiKey ?? NO_KEY,
    webhookKey: null,
    timeout: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    logLevel: 'off',
    openTelemetry: false,
  });

  return {
    name: 'anthropic',

    async send(call: WireCall): Promise<WireAnswer> {
      const { schema, wrapped } = toolSchema(call.jsonSchema);
      const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: call.prompt }];
      if (call.correction) {
        const previous = call.correction.replay as Anthropic.Messages.ContentBlockParam[];
        messages.push({ role: 'assistant', content: previous });
        const toolUse = previous.find((b): b is Anthropic.Messages.ToolUseBlockParam => b.type === 'tool_use');
        const text = correctionText(call.correction.problem);
        // A tool_use must be followed by its tool_result; an error result is the documented way to say "try again".
        messages.push({
          role: 'user',
          content: toolUse ? [{ type: 'tool_result', tool_use_id: toolUse.id, is_error: true, content: text }] : text,
        });
      }
      const res = await client.messages.create({
        model: call.model,
        max_tokens: call.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
        system: call.system,
        messages,
        tools: [{ name: TOOL, description: 'Give your answer, in exactly this shape.', input_schema: schema }],
        tool_choice: { type: 'tool', name: TOOL },
      });
      const u = res.usage;
      // Cache writes and reads are input too; counting them at the input price errs on the side of more spend.
      const usage = u
        ? { inputTokens: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), outputTokens: u.output_tokens ?? 0 }
        : null;
      return { parsed: readAnswer(res, wrapped), replay: replayable(res.content ?? []), usage };
    },

    failure(err: unknown): WireFailure | null {
      if (err instanceof Anthropic.APIConnectionTimeoutError) return { kind: 'timeout' };
      if (err instanceof Anthropic.APIConnectionError) return { kind: 'connection' };
      if (err instanceof Anthropic.APIError) {
        return { kind: 'http', status: err.status, type: err.type, detail: err.apiMessage?.slice(0, 200) ?? null };
      }
      return null;
    },
  };
}

export function anthropicModel(cfg: ProviderConfig['model'], deps: { db: Queryable; dailySpendLimitUsd: number }): MeteredModelProvider {
  return new StructuredModel(anthropicWire(cfg), settingsFrom('anthropic', cfg, deps));
}
