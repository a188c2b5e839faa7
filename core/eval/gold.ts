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

/** What a pack holds that a gold file refers to: its subjects (names and aliases) and documents. */
export type PackIndex = {
  subjects: { name: string; aliases: string[]; sample: boolean }[];
  documents: { url: string; speakers: string[]; text: string; sample: boolean }[];
};

/**
 * The problems of a gold file against its pack, as sentences (none: the pair
 * is consistent): a quote that is not an exact substring of its document's
 * text, a document or subject the pack does not hold, a claim in a document
 * that does not list its subject among the speakers, a quote given twice,
 * a promise or outlook pending with no due date, a record not marked sample.
 */
export function checkGold(gold: Gold, pack: PackIndex): string[] {
  const problems: string[] = [];
  const docs = new Map(pack.documents.map((d) => [d.url, d]));
  const names = new Map<string, string>();
  for (const s of pack.subjects) for (const n of [s.name, ...s.aliases]) names.set(n.toLowerCase(), s.name);
  for (const s of pack.subjects) if (!s.sample) problems.push(`subject ${JSON.stringify(s.name)} is not marked "sample": true`);
  for (const d of pack.documents) if (!d.sample) problems.push(`document ${d.url} is not marked "sample": true`);
  const seen = new Set<string>();
  const check = (kind: string, r: { subject: string; url: string; quote: string }, mustSpeak: boolean) => {
    const where = `${kind} ${JSON.stringify(r.quote.slice(0, 60))}`;
    const subject = names.get(r.subject.toLowerCase());
    if (!subject) problems.push(`${where}: subject ${JSON.stringify(r.subject)} is not in the pack`);
    const doc = docs.get(r.url);
    if (!doc) {
      problems.push(`${where}: document ${r.url} is not in the pack`);
      return;
    }
    if (!doc.text.includes(r.quote)) problems.push(`${where}: the quote is not an exact substring of ${r.url}`);
    if (mustSpeak && subject && !doc.speakers.some((s) => names.get(s.toLowerCase()) === subject)) {
      problems.push(`${where}: ${r.url} does not list ${JSON.stringify(r.subject)} among its speakers`);
    }
    const key = `${r.url}\u0000${r.quote}`;
    if (seen.has(key)) problems.push(`${where}: given twice`);
    seen.add(key);
  };
  for (const c of gold.claims) {
    check('claim', c, true);
    if (c.outcome === 'pending' && c.claim_type !== 'factual' && !c.due) problems.push(`claim ${JSON.stringify(c.quote.slice(0, 60))}: pending with no due date`);
    if (c.outcome === 'pending' && c.due && c.due <= gold.today) problems.push(`claim ${JSON.stringify(c.quote.slice(0, 60))}: pending, but due ${c.due} is not after today ${gold.today}`);
  }
  for (const n of gold.nonClaims) check('non_claim', n, false);
  return problems;
}
