import { parseClaimReview } from './claimreview.ts';
import { parseFte } from './fte.ts';
import { parseLiar } from './liar.ts';
import { parsePromises } from './promises.ts';
import type { ParseOptions, ParseResult } from './rows.ts';

/** The demo-set formats `npm run import -- --format <name>` reads, one parser (one file) each. */
export const FORMATS = {
  liar: parseLiar,
  claimreview: parseClaimReview,
  promises: parsePromises,
  fte: parseFte,
} as const satisfies Record<string, (text: string, opts?: ParseOptions) => ParseResult>;

export type FormatName = keyof typeof FORMATS;

export const isFormat = (s: string): s is FormatName => Object.hasOwn(FORMATS, s);
