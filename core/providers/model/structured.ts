import { createHash } from 'node:crypto';
import { z, type ZodType } from 'zod';
import type { Queryable } from '../../db/pool.ts';
import { UnavailableError, secondsUntilUtcMidnight } from '../../errors.ts';
import { recordSpend, spentToday } from '../../limits/spend.ts';
import type { ModelProvider, ModelRequest } from '../types.ts';
import { unconfiguredPrice, type ModelPrice } from './prices.ts';

/**
 * What both hosted model adapters share: the structured-output loop (ask,
 * validate, ask once more with the validation error, give up), the cache in
 * `model_cache`, the day's spend and its ceiling, and a cap on calls in
 * flight. The adapters (openai.ts, anthropic.ts) only speak their wire format.
 */

/** A model call that could not give a valid answer. Never carries prompt text or the API key. */
export class ModelError extends Error {
  override name = 'ModelError';
  readonly provider: string;
  readonly purpose: string;
  readonly kind: 'http' | 'timeout' | 'connection' | 'invalid-answer';
  /** The provider's HTTP status, when it answered with an error. */
  readonly status: number | undefined;
  constructor(provider: string, purpose: string, kind: ModelError['kind'], message: string, status?: number) {
    super(message);
    this.provider = provider;
    this.purpose = purpose;
    this.kind = kind;
    this.status = status;
  }
}

/** Per-instance counters, for the figures a report shows about its own making. */
export type ModelUsage = {
  /** Calls sent to the provider (each may include the SDK's own retries). */
  calls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
};

/** A ModelProvider whose counters can be read. */
export type MeteredModelProvider = ModelProvider & { usage(): ModelUsage };

export type TokenUsage = { inputTokens: number; outputTokens: number };

/** One call as the adapters see it, in terms common to both wire formats. */
export type WireCall = {
  model: string;
  purpose: string;
  system: string;
  prompt: string;
  /** The answer's JSON schema (zod's input side, without `$schema`). */
  jsonSchema: Record<string, unknown>;
  maxOutputTokens: number | undefined;
  /** Present on the second attempt: the first answer, as the wire gave it, and what was wrong with it. */
  correction?: { replay: unknown; problem: string };
};

export type WireAnswer = {
  /** The JSON value answered, or why there is none (refusal, empty, malformed JSON). */
  parsed: { ok: true; value: unknown } | { ok: false; problem: string };
  /** The answer as the provider sent it, replayed in the correction turn. */
  replay: unknown;
  /** null when the server reported none (some local servers): nothing is recorded. */
  usage: TokenUsage | null;
};

/** A failed HTTP exchange, described without the SDK's message (which may quote the request). */
export type WireFailure = { kind: 'http' | 'timeout' | 'connection'; status?: number; type?: string | null; detail?: string | null };

export interface Wire {
  readonly name: 'openai' | 'anthropic';
  send(call: WireCall): Promise<WireAnswer>;
  /** The SDK's error in our terms; null for anything that is not an SDK error (a bug: rethrown). */
  failure(err: unknown): WireFailure | null;
}

export type StructuredSettings = {
  db: Queryable;
  dailySpendLimitUsd: number;
  model: string;
  apiKey: string | undefined;
  /** The price in force for a model name; a call's cost is priced by the model it asked for. */
  priceFor: (model: string) => ModelPrice;
  maxRetries: number;
  concurrency: number;
};

/** The settings a model adapter is built with, from MODEL_* (one place for both wires). */
export function settingsFrom(
  provider: string,
  cfg: {
    name: string | undefined; judgeName: string | undefined; baseUrl: string | undefined; apiKey: string | undefined;
    price: ModelPrice | null; judgePrice: ModelPrice | null; maxRetries: number; concurrency: number;
  },
  deps: { db: Queryable; dailySpendLimitUsd: number },
): StructuredSettings {
  const { name, judgeName, price, judgePrice } = cfg;
  if (!name || !price) throw new Error(`MODEL_NAME is needed for MODEL_PROVIDER=${provider}`);
  // The two configured names have their prices from config.ts; a stage asking
  // for any other model is priced by the same rule, never for free.
  const priceFor = (model: string): ModelPrice =>
    model === name ? price : model === judgeName && judgePrice ? judgePrice : unconfiguredPrice(model, cfg.baseUrl);
  return {
    db: deps.db, dailySpendLimitUsd: deps.dailySpendLimitUsd, model: name, apiKey: cfg.apiKey,
    priceFor, maxRetries: cfg.maxRetries, concurrency: cfg.concurrency,
  };
}

/** The text of the user turn that asks again; the same for both wires. */
export function correctionText(problem: string): string {
  return `Your previous answer could not be used: ${problem}. Answer again, with only the answer in the required JSON shape.`;
}

/** JSON schema sent to the provider: the input side (what the model must write), without `$schema`. */
export function jsonSchemaOf(schema: ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Short, for the model and for the error message: paths and messages only, never the values. */
function issuesText(error: z.ZodError): string {
  const shown = error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '';
  return `the answer does not match the schema (${shown.join('; ')}${more})`.slice(0, 600);
}

/** At most `limit` holders at once; the others wait in arrival order. */
class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(limit: number) {
    this.#free = Math.max(1, limit);
  }
  async run<R>(fn: () => Promise<R>): Promise<R> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter, so a newcomer cannot overtake it.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

const RETRIED_STATUS = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;

export class StructuredModel implements MeteredModelProvider {
  readonly name: string;
  readonly model: string;
  readonly #wire: Wire;
  readonly #s: StructuredSettings;
  readonly #slots: Slots;
  readonly #usage: ModelUsage = { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

  constructor(wire: Wire, settings: StructuredSettings) {
    this.#wire = wire;
    this.#s = settings;
    this.name = wire.name;
    this.model = settings.model;
    this.#slots = new Slots(settings.concurrency);
  }

  usage(): ModelUsage {
    return { ...this.#usage };
  }

  async complete<T>(request: ModelRequest<T>): Promise<T> {
    const model = request.model ?? this.model;
    const jsonSchema = jsonSchemaOf(request.schema);
    const key = createHash('sha256')
      .update(JSON.stringify([this.name, model, request.system, request.prompt, jsonSchema, request.maxOutputTokens ?? null]))
      .digest();
    // Submitted check text must leave no trace once its job ends: such calls neither read nor write the cache.
    const hit = request.ephemeral ? null : await this.#cached(key, request.schema);
    if (hit) return hit.value;

    return this.#slots.run(async () => {
      const call: WireCall = { model, purpose: request.purpose, system: request.system, prompt: request.prompt, jsonSchema, maxOutputTokens: request.maxOutputTokens };
      const spent: TokenUsage = { inputTokens: 0, outputTokens: 0 };
      for (let attempt = 1; ; attempt++) {
        const answer = await this.#send(call, spent);
        const checked = answer.parsed.ok ? request.schema.safeParse(answer.parsed.value) : null;
        if (checked?.success && answer.parsed.ok) {
          if (!request.ephemeral) await this.#store(key, model, request.purpose, answer.parsed.value, spent);
          return checked.data;
        }
        const problem = answer.parsed.ok ? issuesText(checked!.error!) : answer.parsed.problem;
        if (attempt === 2) {
          throw new ModelError(this.name, request.purpose, 'invalid-answer',
            `${this.name} model ${model} gave no valid answer for "${request.purpose}" after a correction: ${problem}`);
        }
        call.correction = { replay: answer.replay, problem };
      }
    });
  }

  async #cached<T>(key: Buffer, schema: ZodType<T>): Promise<{ value: T } | null> {
    const { rows } = await this.#s.db.query<{ answer: unknown }>('SELECT answer FROM model_cache WHERE key = $1', [key]);
    if (rows.length === 0) return null;
    // Validated again: the schema's refinements may have tightened since the answer was stored.
    const checked = schema.safeParse(rows[0]!.answer);
    if (!checked.success) return null;
    this.#usage.cacheHits++;
    return { value: checked.data };
  }

  async #store(key: Buffer, model: string, purpose: string, answer: unknown, spent: TokenUsage): Promise<void> {
    // The answer is valid and paid for: a cache that cannot hold it (a \u0000 that
    // jsonb refuses, say) costs a repeat call later, not this answer.
    await this.#s.db.query(
      `INSERT INTO model_cache (key, provider, model, purpose, answer, input_tokens, output_tokens)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING`,
      [key, this.name, model, purpose, JSON.stringify(answer), spent.inputTokens, spent.outputTokens],
    ).catch((err: unknown) => {
      // 22P05: untranslatable character. Anything else (no table, no database) is a real fault.
      if ((err as { code?: string }).code !== '22P05') throw err;
    });
  }

  /** One HTTP call (with the SDK's retries): the ceiling checked before, the spend recorded after. */
  async #send(call: WireCall, spent: TokenUsage): Promise<WireAnswer> {
    // Checked per call, not per request: a correction is paid too. Calls already
    // in flight when the ceiling is crossed may overshoot it by their own cost.
    if ((await spentToday(this.#s.db)) >= this.#s.dailySpendLimitUsd) {
      throw new UnavailableError(
        'spend-limit',
        `The service has reached today's spending ceiling (${this.#s.dailySpendLimitUsd} USD); model calls resume after 00:00 UTC. Stored reports are still served.`,
        secondsUntilUtcMidnight(),
      );
    }
    this.#usage.calls++;
    let answer: WireAnswer;
    try {
      answer = await this.#wire.send(call);
    } catch (err) {
      throw this.#modelError(err, call);
    }
    if (answer.usage) {
      const { inputTokens, outputTokens } = answer.usage;
      const price = this.#s.priceFor(call.model);
      const amountUsd = (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1e6;
      await recordSpend(this.#s.db, { provider: this.name, purpose: call.purpose, inputTokens, outputTokens, amountUsd });
      spent.inputTokens += inputTokens;
      spent.outputTokens += outputTokens;
      this.#usage.inputTokens += inputTokens;
      this.#usage.outputTokens += outputTokens;
      this.#usage.costUsd += amountUsd;
    }
    return answer;
  }

  #modelError(err: unknown, call: WireCall): unknown {
    const f = this.#wire.failure(err);
    if (!f) return err;
    const retried = this.#s.maxRetries > 0 && (f.kind !== 'http' || (f.status !== undefined && RETRIED_STATUS(f.status)));
    const what =
      f.kind === 'timeout' ? 'timed out'
      : f.kind === 'connection' ? 'could not connect'
      : `answered HTTP ${f.status ?? '?'}${f.type ? ` (${f.type})` : ''}${f.detail ? `: ${f.detail}` : ''}`;
    const message = `${this.name} model ${call.model} call for "${call.purpose}" failed: ${what}${retried ? ` (after ${this.#s.maxRetries} ${this.#s.maxRetries === 1 ? 'retry' : 'retries'})` : ''}`;
    return new ModelError(this.name, call.purpose, f.kind, this.#redact(message), f.status);
  }

  /** The provider's own error text may echo the key (OpenAI's 401 does, in part): never pass it on. */
  #redact(text: string): string {
    let out = text.replace(/\b(sk|key)-[A-Za-z0-9_-]{8,}/g, '[redacted]');
    const key = this.#s.apiKey;
    if (key && key.length >= 4) out = out.split(key).join('[redacted]');
    return out.slice(0, 500);
  }
}

/** A model answer's text as JSON. Local models often fence it in ```json … ```; that much is forgiven. */
export function parseJsonText(text: string | null | undefined): WireAnswer['parsed'] {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return { ok: false, problem: 'the answer was empty' };
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : trimmed) };
  } catch {
    // Not the parser's message: it quotes the answer, which may quote the prompt.
    return { ok: false, problem: 'the answer was not valid JSON' };
  }
}
