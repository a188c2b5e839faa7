import { isResolved, type ClaimType, type Outcome } from '../method/outcomes.ts';
import { nameKey } from '../corpus/pack.ts';
import type { Gold, GoldClaim } from './gold.ts';

/**
 * The engine's claims held against a gold file (docs/source-packs.md,
 * "`npm run eval`"). Pure: the caller researches, this module counts.
 *
 * Matching. An engine claim and a gold claim of the same subject match when
 * they come from the same document and their quotes share most of their
 * words: at least 70% of the shorter quote's words and 40% of the longer's
 * (an engine quote may carry a "she said" the gold quote leaves out). Each
 * gold claim takes its best-matching engine claim, one to one.
 */

export type EngineClaim = {
  claim_type: ClaimType;
  quote: string;
  quote_verified: boolean;
  source: { url: string };
  outcome: Outcome;
  on_time: boolean | null;
  evidence: Array<{ url: string; publisher: string | null; independent_of_subject: boolean }>;
};

export type EngineRun = { subject: string; status: string; reason?: string; claims: EngineClaim[]; ms: number };
export type PackSubject = { name: string; aliases: string[]; urls: string[] };
export type PackDocument = { url: string; publisher: string; text: string };

export type Side = 'true' | 'mixed' | 'false' | 'unresolvable' | 'pending';
export function sideOf(o: Outcome): Side {
  if (o === 'true' || o === 'mostly_true') return 'true';
  if (o === 'false' || o === 'mostly_false') return 'false';
  return o;
}

const tokens = (s: string) => s.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];

export function quoteMatch(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.length || !tb.length) return 0;
  const bag = new Map<string, number>();
  for (const t of tb) bag.set(t, (bag.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) {
    const n = bag.get(t) ?? 0;
    if (n > 0) {
      common++;
      bag.set(t, n - 1);
    }
  }
  const short = common / Math.min(ta.length, tb.length);
  const long = common / Math.max(ta.length, tb.length);
  return short >= 0.7 && long >= 0.4 ? short + long : 0;
}

export type ClaimResult = {
  gold: GoldClaim;
  found: boolean;
  engine: { quote: string; claim_type: ClaimType; outcome: Outcome; independent_evidence?: number } | null;
  type_right: boolean;
  side_right: boolean;
};

/**
 * Where a gold claim was lost, by stage, so that a part of the benchmark can be diagnosed without reading its
 * texts: `right`; `not_found` (extraction); for a claim the gold settles, `no_evidence` (the engine left it open
 * with no independent evidence: search or grounding), `not_read` (independent evidence, but no judge settled
 * it), `wrong_side`, `pending` (the engine read it as not yet due); for a claim the gold leaves open or pending,
 * `settled_open` (the engine settled it) or `other`.
 */
export const STAGES = ['right', 'not_found', 'no_evidence', 'not_read', 'wrong_side', 'pending', 'settled_open', 'other'] as const;
export type Stage = (typeof STAGES)[number];

export function stageOf(c: ClaimResult): Stage {
  if (c.side_right) return 'right';
  if (!c.engine) return 'not_found';
  const resolved = isResolved(c.engine.outcome);
  if (isResolved(c.gold.outcome)) {
    if (resolved) return 'wrong_side';
    if (c.engine.outcome === 'pending') return 'pending';
    return (c.engine.independent_evidence ?? 0) > 0 ? 'not_read' : 'no_evidence';
  }
  return resolved ? 'settled_open' : 'other';
}

/** How many gold claims each stage holds, and how many of those the engine typed wrongly. */
export function stageCounts(claims: readonly ClaimResult[]): Record<Stage, { n: number; type_wrong: number }> {
  const out = Object.fromEntries(STAGES.map((s) => [s, { n: 0, type_wrong: 0 }])) as Record<Stage, { n: number; type_wrong: number }>;
  for (const c of claims) {
    const s = out[stageOf(c)];
    s.n++;
    if (c.engine && !c.type_right) s.type_wrong++;
  }
  return out;
}

export type Counts = {
  gold_claims: number;
  found: number;
  type_right: number;
  side_right: number;
  gold_resolved: number;
  engine_resolved_of_gold_resolved: number;
  /** Engine verdicts that resolve a matched claim on the wrong side (a gold unresolvable or pending included). */
  wrong_resolved: number;
  engine_resolved: number;
  extracted: number;
  false_extractions: number;
  gold_non_claims: number;
  non_claims_extracted: number;
  wrongly_independent: number;
  non_verbatim_verified: number;
  reports: number;
  complete: number;
  ms: number;
};

export type PackMeasure = {
  counts: Counts;
  claims: ClaimResult[];
  falseExtractions: Array<{ subject: string; url: string; quote: string; claim_type: ClaimType; outcome: Outcome; non_claim: string | null }>;
  phenomena: Map<string, { n: number; side_right: number }>;
  subjects: Array<{ subject: string; status: string; reason?: string; claims: number }>;
};

export function emptyCounts(): Counts {
  return {
    gold_claims: 0, found: 0, type_right: 0, side_right: 0, gold_resolved: 0, engine_resolved_of_gold_resolved: 0, wrong_resolved: 0, engine_resolved: 0,
    extracted: 0, false_extractions: 0, gold_non_claims: 0, non_claims_extracted: 0, wrongly_independent: 0, non_verbatim_verified: 0, reports: 0, complete: 0, ms: 0,
  };
}

export function addCounts(a: Counts, b: Counts): Counts {
  const out = { ...a };
  for (const k of Object.keys(b) as Array<keyof Counts>) out[k] += b[k];
  return out;
}

function onSite(url: string, site: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(/^[a-z]+:\/\//i.test(site) ? site : `https://${site}`);
    const host = (u: URL) => u.host.toLowerCase().replace(/^www\./, '');
    const base = b.pathname.replace(/\/+$/, '');
    return host(a) === host(b) && (base === '' || a.pathname === base || a.pathname.startsWith(`${base}/`));
  } catch {
    return false;
  }
}

/** Evidence marked independent that the pack shows is the subject's own (its name or alias as publisher, or its site). */
function wronglyIndependent(e: EngineClaim['evidence'][number], subject: PackSubject | undefined, docs: Map<string, PackDocument>): boolean {
  if (!e.independent_of_subject || !subject) return false;
  const publisher = nameKey(docs.get(e.url)?.publisher ?? e.publisher ?? '').replace(/^the /, '');
  const names = [subject.name, ...subject.aliases].map((n) => nameKey(n).replace(/^the /, ''));
  return names.includes(publisher) || subject.urls.some((s) => onSite(e.url, s));
}

export function measurePack(gold: Gold, runs: readonly EngineRun[], subjects: readonly PackSubject[], documents: readonly PackDocument[]): PackMeasure {
  const counts = emptyCounts();
  const docs = new Map(documents.map((d) => [d.url, d]));
  const bySubject = new Map(subjects.map((s) => [nameKey(s.name), s]));
  const runOf = new Map(runs.map((r) => [nameKey(r.subject), r]));
  const used = new Set<EngineClaim>();
  const claims: ClaimResult[] = [];

  // Best pairs first, so that a gold claim never takes the engine claim a closer gold claim needs.
  const pairs: Array<{ g: GoldClaim; e: EngineClaim; score: number }> = [];
  for (const g of gold.claims) {
    for (const e of runOf.get(nameKey(g.subject))?.claims ?? []) {
      if (e.source.url !== g.url) continue;
      const score = quoteMatch(g.quote, e.quote);
      if (score > 0) pairs.push({ g, e, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const matchOf = new Map<GoldClaim, EngineClaim>();
  for (const p of pairs) {
    if (matchOf.has(p.g) || used.has(p.e)) continue;
    matchOf.set(p.g, p.e);
    used.add(p.e);
  }

  const phenomena = new Map<string, { n: number; side_right: number }>();
  for (const g of gold.claims) {
    const e = matchOf.get(g) ?? null;
    const type_right = !!e && e.claim_type === g.claim_type;
    const side_right = !!e && sideOf(e.outcome) === sideOf(g.outcome);
    counts.gold_claims++;
    if (e) counts.found++;
    if (type_right) counts.type_right++;
    if (side_right) counts.side_right++;
    if (isResolved(g.outcome)) {
      counts.gold_resolved++;
      if (e && isResolved(e.outcome)) counts.engine_resolved_of_gold_resolved++;
    }
    if (e && isResolved(e.outcome)) {
      counts.engine_resolved++;
      if (!side_right) counts.wrong_resolved++;
    }
    for (const p of g.phenomena.length ? g.phenomena : ['(none)']) {
      const t = phenomena.get(p) ?? { n: 0, side_right: 0 };
      t.n++;
      if (side_right) t.side_right++;
      phenomena.set(p, t);
    }
    claims.push({ gold: g, found: !!e, engine: e ? { quote: e.quote, claim_type: e.claim_type, outcome: e.outcome, independent_evidence: e.evidence.filter((x) => x.independent_of_subject).length } : null, type_right, side_right });
  }

  const falseExtractions: PackMeasure['falseExtractions'] = [];
  counts.gold_non_claims = gold.nonClaims.length;
  const goldSubjects = new Set(gold.claims.map((g) => nameKey(g.subject)).concat(gold.nonClaims.map((n) => nameKey(n.subject))));
  const nonClaimsHit = new Set<unknown>();
  for (const run of runs) {
    const subject = bySubject.get(nameKey(run.subject));
    counts.reports++;
    if (run.status === 'complete') counts.complete++;
    counts.ms += run.ms;
    for (const e of run.claims) {
      if (!goldSubjects.has(nameKey(run.subject))) continue;
      counts.extracted++;
      if (e.quote_verified && !(docs.get(e.source.url)?.text ?? '').includes(e.quote)) counts.non_verbatim_verified++;
      for (const ev of e.evidence) if (wronglyIndependent(ev, subject, docs)) counts.wrongly_independent++;
      if (used.has(e)) continue;
      counts.false_extractions++;
      const nc = gold.nonClaims.find((n) => nameKey(n.subject) === nameKey(run.subject) && n.url === e.source.url && quoteMatch(n.quote, e.quote) > 0);
      if (nc) nonClaimsHit.add(nc);
      falseExtractions.push({ subject: run.subject, url: e.source.url, quote: e.quote, claim_type: e.claim_type, outcome: e.outcome, non_claim: nc ? nc.why : null });
    }
  }
  counts.non_claims_extracted = nonClaimsHit.size;
  const subjectsOut = runs.map((r) => ({ subject: r.subject, status: r.status, ...(r.reason ? { reason: r.reason } : {}), claims: r.claims.length }));
  return { counts, claims, falseExtractions, phenomena, subjects: subjectsOut };
}

/** The headline figures of a set of counts, as shares (0 to 1; null with nothing to divide by). */
export function figures(c: Counts) {
  const share = (a: number, b: number) => (b === 0 ? null : a / b);
  return {
    gold_claims: c.gold_claims,
    found: share(c.found, c.gold_claims),
    type_right: share(c.type_right, c.found),
    side_right: share(c.side_right, c.gold_claims),
    coverage: share(c.engine_resolved_of_gold_resolved, c.gold_resolved),
    wrong_of_resolved: share(c.wrong_resolved, c.engine_resolved),
    false_extractions: share(c.false_extractions, c.extracted),
    non_claims_extracted: c.non_claims_extracted,
    gold_non_claims: c.gold_non_claims,
    wrongly_independent: c.wrongly_independent,
    non_verbatim_verified: c.non_verbatim_verified,
    ms_per_report: c.reports ? c.ms / c.reports : null,
  };
}
