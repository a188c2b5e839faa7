import OpenAI from 'openai';
import type { ProviderConfig } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import {
  StructuredModel, correctionText, parseJsonText, settingsFrom,
  type MeteredModelProvider, type Wire, type WireAnswer, type WireCall, type WireFailure,
} from './structured.ts';

/**
 * OpenAI chat completions, and every server that speaks them (vLLM, Ollama,
 * llama.cpp) at MODEL_BASE_URL. Structured output through `response_format`
 * json_schema, not strict: strict mode accepts only a subset of JSON Schema
 * (every property required, no bounds) and local servers vary in what they
 * enforce, so our own zod validation is what decides.
 */

const OFFICIAL_BASE_URL = 'https://api.openai.com/v1';
// The SDK refuses to start without a key; a local server ignores it. Plainly not a key.
const NO_KEY = 'no-key-configured';

/** json_schema.name must match ^[a-zA-Z0-9_-]{1,64}$. */
const formatName = (purpose: string) => purpose.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'answer';

export function openaiWire(cfg: ProviderConfig['model']): Wire {
  const official = !cfg.baseUrl;
  // Every setting the SDK would otherwise take from its OPENAI_* variables is
  // given here (config.ts is the one reader of the environment); only
  // OPENAI_CUSTOM_HEADERS, which the SDK reads whatever it is given, is not.
  const client = new OpenAI({
    baseURL: cfg.baseUrl ?? OFFICIAL_BASE_URL,
    apiKey: cfg.apiKey ?? NO_KEY,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    // Failures reach the caller as ModelError; the SDK's console logger would bypass the service's log.
    logLevel: 'off',
  });

  return {
    name: 'openai',

    async send(call: WireCall): Promise<WireAnswer> {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: call.system },
        { role: 'user', content: call.prompt },
      ];
      if (call.correction) {
        messages.push(
          { role: 'assistant', content: String(call.correction.replay) },
          { role: 'user', content: correctionText(call.correction.problem) },
        );
      }
      // The official API has renamed the limit (reasoning models refuse max_tokens);
      // the compatible servers all know max_tokens, not all the new name.
      const limit = call.maxOutputTokens === undefined ? {}
        : official ? { max_completion_tokens: call.maxOutputTokens }
        : { max_tokens: call.maxOutputTokens };
      const res = await client.chat.completions.create({
        model: call.model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: formatName(call.purpose), schema: call.jsonSchema, strict: false } },
        ...limit,
      });
      const message = res.choices?.[0]?.message;
      const usage = res.usage
        ? { inputTokens: res.usage.prompt_tokens ?? 0, outputTokens: res.usage.completion_tokens ?? 0 }
        : null;
      if (message?.refusal) {
        return { parsed: { ok: false, problem: 'the model refused to answer' }, replay: message.refusal, usage };
      }
      const content = message?.content ?? '';
      return { parsed: parseJsonText(content), replay: content || '(no answer)', usage };
    },

    failure(err: unknown): WireFailure | null {
      if (err instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout' };
      if (err instanceof OpenAI.APIConnectionError) return { kind: 'connection' };
      if (err instanceof OpenAI.APIError) {
        const body = err.error as { message?: unknown } | undefined;
        const detail = typeof body?.message === 'string' ? body.message.slice(0, 200) : null;
        return { kind: 'http', status: err.status, type: err.type ?? (err.code ? String(err.code) : null), detail };
      }
      return null;
    },
  };
}

export function openaiModel(cfg: ProviderConfig['model'], deps: { db: Queryable; dailySpendLimitUsd: number }): MeteredModelProvider {
  return new StructuredModel(openaiWire(cfg), settingsFrom('openai', cfg, deps));
}
