import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CLAIM_TYPES, OUTCOMES } from '../method/outcomes.ts';
import { IsoDateSchema } from '../schemas/common.ts';

/**
 * Gold files (docs/source-packs.md, "Gold files"): what a careful fact-checker
 * finds in a source pack, to measure the engine against. JSON Lines, beside
 * the pack, named `<pack>.gold.jsonl`.
 */

export const NON_CLAIM_REASONS = ['opinion', 'question', 'others_words', 'narrator', 'offer', 'hedge', 'vague', 'greeting'] as const;

export const GoldEvalSchema = z.looseObject({
  record: z.literal('eval'),
  today: IsoDateSchema,
  field: z.string().optional(),
  author: z.string().optional(),
});

export const GoldClaimSchema = z.looseObject({
  record: z.literal('claim'),
  subject: z.string().min(1),
  url: z.string().min(1),
  quote: z.string().min(1),
  claim_type: z.enum(CLAIM_TYPES),
  outcome: z.enum(OUTCOMES),
  on_time: z.boolean().nullish(),
  due: IsoDateSchema.nullish(),
  phenomena: z.array(z.string()).default([]),
  note: z.string().optional(),
});

export const GoldNonClaimSchema = z.looseObject({
  record: z.literal('non_claim'),
  subject: z.string().min(1),
  url: z.string().min(1),
  quote: z.string().min(1),
  why: z.string().min(1),
  phenomena: z.array(z.string()).default([]),
});

export const GoldRecordSchema = z.discriminatedUnion('record', [GoldEvalSchema, GoldClaimSchema, GoldNonClaimSchema]);

export type GoldClaim = z.infer<typeof GoldClaimSchema>;
export type GoldNonClaim = z.infer<typeof GoldNonClaimSchema>;
export type Gold = { today: string; field: string | null; author: string | null; claims: GoldClaim[]; nonClaims: GoldNonClaim[] };

/** Reads and checks a gold file; a bad line is an error naming its line (a benchmark must not be half-read). */
export function parseGold(text: string, file = 'gold'): Gold {
  let meta: z.infer<typeof GoldEvalSchema> | null = null;
  const claims: GoldClaim[] = [];
  const nonClaims: GoldNonClaim[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
    const r = GoldRecordSchema.safeParse(raw);
    if (!r.success) throw new Error(`${file}:${i + 1}: ${r.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`);
    if (r.data.record === 'eval') meta = r.data;
    else if (r.data.record === 'claim') claims.push(r.data);
    else nonClaims.push(r.data);
  });
  if (!meta) throw new Error(`${file}: no {"record":"eval","today":…} line`);
  const m = meta as z.infer<typeof GoldEvalSchema>;
  return { today: m.today, field: m.field ?? null, author: m.author ?? null, claims, nonClaims };
}

export function readGold(file: string): Gold {
  return parseGold(readFileSync(file, 'utf8'), file);
}

/** The gold file of a pack: `x.jsonl` → `x.gold.jsonl`. */
export function goldPathFor(packPath: string): string {
  return packPath.replace(/\.jsonl$/, '.gold.jsonl');
}
