import ipaddr from 'ipaddr.js';

/**
 * What a model call costs, so that every call's tokens count honestly against
 * the daily spending ceiling (DAILY_SPEND_LIMIT_USD) without the operator
 * having to look prices up first. A model's price comes from, in order:
 *
 * 1. `configured`: the operator's own variables (MODEL_PRICE_* for MODEL_NAME,
 *    MODEL_JUDGE_PRICE_* for MODEL_JUDGE_NAME). They always win.
 * 2. `table`: the dated list below, for the well-known hosted models.
 * 3. `local`: a base URL on loopback or a private address (a vLLM, Ollama or
 *    llama.cpp server of one's own) is free. It comes after the table on
 *    purpose: a proxy on localhost in front of a hosted API (LiteLLM, say)
 *    still pays for "gpt-4o", and counting it too high is the safe mistake.
 * 4. `default`: anything else gets a price above every table entry, and the
 *    service says so once at start (config.ts builds the line).
 *
 * Pure: no I/O, no DNS. A host name is judged by its text only, so only
 * `localhost` and `*.localhost` (which RFC 6761 keeps on loopback) count as
 * local names; any other name (a Docker service name, `*.internal`) may lead
 * anywhere and gets the default until its price is configured.
 */

/** The day the table's figures were read. */
export const PRICE_TABLE_DATE = '2025-12-01';

export type PriceSource = 'configured' | 'table' | 'local' | 'default';

/** The price in force for one model, in US dollars per million tokens, and where it came from. */
export type ModelPrice = Readonly<{
  inputPerMTok: number;
  outputPerMTok: number;
  currency: 'USD';
  source: PriceSource;
  /** PRICE_TABLE_DATE when the source is the table; null otherwise. */
  tableDate: string | null;
}>;

type Entry = Readonly<{ input: number; output: number }>;

/**
 * The providers' published list prices (standard tier, per million tokens, USD)
 * as they stood on PRICE_TABLE_DATE, from OpenAI's and Anthropic's pricing
 * pages. Written by hand: the service cannot reach those pages and must not
 * try to. Review every figure against the pages whenever the table is touched,
 * and move PRICE_TABLE_DATE with it; a stale figure undercounts spend. Not
 * counted: cached-input and batch discounts (the service uses neither) and
 * long-context surcharges (its prompts are far below those thresholds).
 *
 * Names match exactly, or with a dated snapshot suffix (see `tablePrice`);
 * a snapshot priced apart from its alias gets an exact entry of its own.
 */
const TABLE: ReadonlyMap<string, Entry> = new Map<string, Entry>([
  // OpenAI
  ['gpt-5.1', { input: 1.25, output: 10 }],
  ['gpt-5', { input: 1.25, output: 10 }],
  ['gpt-5-mini', { input: 0.25, output: 2 }],
  ['gpt-5-nano', { input: 0.05, output: 0.4 }],
  ['gpt-4.1', { input: 2, output: 8 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6 }],
  ['gpt-4.1-nano', { input: 0.1, output: 0.4 }],
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['gpt-4o-2024-05-13', { input: 5, output: 15 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
  ['o3', { input: 2, output: 8 }],
  ['o4-mini', { input: 1.1, output: 4.4 }],
  // Anthropic
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-1', { input: 15, output: 75 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-opus-4-0', { input: 15, output: 75 }],
  ['claude-sonnet-4-5', { input: 3, output: 15 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-sonnet-4-0', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4-5', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
]);

/** Every table entry, for the documentation and the tests. */
export const PRICE_TABLE: ReadonlyArray<Readonly<{ name: string; inputPerMTok: number; outputPerMTok: number }>> = [...TABLE].map(
  ([name, e]) => ({ name, inputPerMTok: e.input, outputPerMTok: e.output }),
);

/**
 * The price of a model nothing else prices: above every entry of the table on
 * both sides, so an unknown model reaches the ceiling early rather than late.
 */
export const DEFAULT_PRICE: Readonly<{ inputPerMTok: number; outputPerMTok: number }> = { inputPerMTok: 20, outputPerMTok: 100 };

// A dated snapshot of a listed name: gpt-4o-2024-08-06, claude-sonnet-4-5-20250929, claude-3-5-haiku-latest.
// Only these suffixes: "gpt-4o-mini" must not match "gpt-4o", nor "claude-opus-4-1" "claude-opus-4".
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The table's price for a model name: the exact name first, then the name without a snapshot suffix; null when unlisted. */
export function tablePrice(name: string): Entry | null {
  const exact = TABLE.get(name);
  if (exact) return exact;
  const m = SNAPSHOT.exec(name);
  return m ? (TABLE.get(name.slice(0, m.index)) ?? null) : null;
}

/** Whether a base URL is served on this machine or a private network: 'loopback', 'private', or null (anywhere else, or unset). */
export function localBaseUrl(baseUrl: string | undefined): 'loopback' | 'private' | null {
  if (!baseUrl) return null;
  let host: string;
  try {
    // WHATWG's parser lower-cases names, writes IPv4 in dotted form and IPv6 in brackets.
    host = new URL(baseUrl).hostname;
  } catch {
    return null;
  }
  const bare = host.startsWith('[') ? host.slice(1, -1) : host.replace(/\.$/, '');
  if (!ipaddr.isValid(bare)) return bare === 'localhost' || bare.endsWith('.localhost') ? 'loopback' : null;
  // process(): an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const range = ipaddr.process(bare).range();
  // 0.0.0.0 and :: reach this machine when connected to (servers print them as their address).
  if (range === 'loopback' || range === 'unspecified') return 'loopback';
  if (range === 'private' || range === 'uniqueLocal') return 'private';
  return null;
}

export function configuredPrice(inputPerMTok: number, outputPerMTok: number): ModelPrice {
  return Object.freeze({ inputPerMTok, outputPerMTok, currency: 'USD', source: 'configured', tableDate: null });
}

/** A model's price when nothing is configured for it: table, then local, then the default. */
export function unconfiguredPrice(name: string, baseUrl: string | undefined): ModelPrice {
  const listed = tablePrice(name);
  if (listed) return Object.freeze({ inputPerMTok: listed.input, outputPerMTok: listed.output, currency: 'USD', source: 'table', tableDate: PRICE_TABLE_DATE });
  if (localBaseUrl(baseUrl)) return Object.freeze({ inputPerMTok: 0, outputPerMTok: 0, currency: 'USD', source: 'local', tableDate: null });
  return Object.freeze({ ...DEFAULT_PRICE, currency: 'USD', source: 'default', tableDate: null });
}
