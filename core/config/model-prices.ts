import { configuredPrice, unconfiguredPrice, type ModelPrice } from '../providers/model/prices.ts';

/**
 * The model price variables of config.ts (README, "Hosted providers", model
 * prices): which combinations are refused, the price in force for each model,
 * and the one line said at start when a model is priced at the default.
 */

/** The parsed variables this part reads (numbers already checked by config.ts's schema). */
export type PriceEnv = Readonly<{
  MODEL_PROVIDER: 'none' | 'openai' | 'anthropic';
  MODEL_BASE_URL?: string | undefined;
  MODEL_NAME?: string | undefined;
  MODEL_JUDGE_NAME?: string | undefined;
  MODEL_PRICE_INPUT_PER_MTOK?: number | undefined;
  MODEL_PRICE_OUTPUT_PER_MTOK?: number | undefined;
  MODEL_JUDGE_PRICE_INPUT_PER_MTOK?: number | undefined;
  MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK?: number | undefined;
}>;

type PriceVariable = 'MODEL_PRICE_INPUT_PER_MTOK' | 'MODEL_PRICE_OUTPUT_PER_MTOK' | 'MODEL_JUDGE_PRICE_INPUT_PER_MTOK' | 'MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK';

/** A price pair is set whole or not at all: half a price is a mistake, not a wish for the table's other half. */
function halfPair(e: PriceEnv, input: PriceVariable, output: PriceVariable): string | null {
  if ((e[input] === undefined) === (e[output] === undefined)) return null;
  const [set, unset] = e[input] === undefined ? [output, input] : [input, output];
  return `${set} is set but ${unset} is not; set both (0 and 0 for a free model), or neither to use the price table`;
}

/** Why the price variables of a configured model cannot be used as given; null when they can. */
export function priceVariablesProblem(e: PriceEnv): string | null {
  const half = halfPair(e, 'MODEL_PRICE_INPUT_PER_MTOK', 'MODEL_PRICE_OUTPUT_PER_MTOK') ?? halfPair(e, 'MODEL_JUDGE_PRICE_INPUT_PER_MTOK', 'MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK');
  if (half) return half;
  if (e.MODEL_JUDGE_PRICE_INPUT_PER_MTOK === undefined) return null;
  if (!e.MODEL_JUDGE_NAME) return 'MODEL_JUDGE_PRICE_INPUT_PER_MTOK and MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK price MODEL_JUDGE_NAME, which is not set; set it, or unset them';
  // Spend is priced by the model name a call asks for: one name cannot have two prices.
  if (e.MODEL_JUDGE_NAME === e.MODEL_NAME) return 'MODEL_JUDGE_NAME is MODEL_NAME, so its price is MODEL_PRICE_*; unset MODEL_JUDGE_PRICE_INPUT_PER_MTOK and MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK';
  return null;
}

/**
 * The price in force for each model called: the operator's variables, else
 * the table, a local server, or the default (core/providers/model/prices.ts).
 * The judge's model, when it has one of its own, is priced by its own name
 * the same way; when it is MODEL_NAME it shares that price.
 */
export function modelPrices(e: PriceEnv): { price: ModelPrice | null; judgePrice: ModelPrice | null } {
  if (e.MODEL_PROVIDER === 'none' || !e.MODEL_NAME) return { price: null, judgePrice: null };
  const price = e.MODEL_PRICE_INPUT_PER_MTOK !== undefined && e.MODEL_PRICE_OUTPUT_PER_MTOK !== undefined
    ? configuredPrice(e.MODEL_PRICE_INPUT_PER_MTOK, e.MODEL_PRICE_OUTPUT_PER_MTOK)
    : unconfiguredPrice(e.MODEL_NAME, e.MODEL_BASE_URL);
  const judge = e.MODEL_JUDGE_NAME;
  if (!judge) return { price, judgePrice: null };
  const judgePrice = judge === e.MODEL_NAME ? price
    : e.MODEL_JUDGE_PRICE_INPUT_PER_MTOK !== undefined && e.MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK !== undefined
      ? configuredPrice(e.MODEL_JUDGE_PRICE_INPUT_PER_MTOK, e.MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK)
      : unconfiguredPrice(judge, e.MODEL_BASE_URL);
  return { price, judgePrice };
}

/** One line for every model priced at the default, naming the variables that set its real price; null when none is. */
export function defaultPriceWarning(m: { name: string | undefined; judgeName: string | undefined; price: ModelPrice | null; judgePrice: ModelPrice | null }): string | null {
  const parts: string[] = [];
  const usd = (p: ModelPrice) => `${p.inputPerMTok} USD input / ${p.outputPerMTok} USD output per million tokens`;
  if (m.price?.source === 'default') {
    parts.push(`MODEL_NAME "${m.name}" is counted at ${usd(m.price)} (set MODEL_PRICE_INPUT_PER_MTOK and MODEL_PRICE_OUTPUT_PER_MTOK to its real price)`);
  }
  if (m.judgePrice?.source === 'default' && m.judgeName !== m.name) {
    parts.push(`MODEL_JUDGE_NAME "${m.judgeName}" is counted at ${usd(m.judgePrice)} (set MODEL_JUDGE_PRICE_INPUT_PER_MTOK and MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK to its real price)`);
  }
  if (parts.length === 0) return null;
  return `model price unknown, so a conservative default counts against DAILY_SPEND_LIMIT_USD: ${parts.join('; ')}; 0 and 0 for a free model`;
}
