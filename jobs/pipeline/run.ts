import { REVIEW_LABEL } from '../../core/method/outcomes.ts';
import { mapLimit } from '../../core/concurrency.ts';
import { methodVersion } from '../../core/method/version.ts';
import type { KnownSubject, Providers } from '../../core/providers/types.ts';
import type { JobProgress } from '../../core/schemas/resources.ts';
import { assessStage, extractStage } from './stages.ts';
import { runOfficers } from '../../core/research/officers.ts';
import { discoverStatements } from './discover.ts';
import { findDocuments } from './search.ts';
import { toJudgedClaim, type JudgedClaim } from '../../core/research/claims.ts';
import { scoreStage, topicFilter } from '../../core/research/score-stage.ts';
import type { CandidateClaim } from '../../core/research/types.ts';

/**
 * The research pipeline end to end for one subject:
 * rules → discover → extract, classify, criteria → evidence → judge → score.
 * The fixed test of every claim is written (criteria) before its evidence is
 * looked for. Nothing is stored here; the caller stores a complete report.
 *
 * Depth (documented in the API): `quick` reads up to 40 of the subject's most
 * recent statement documents and keeps up to 5 pieces of evidence a claim;
 * `standard` reads up to 150 and keeps up to 8.
 */

export const DEPTHS = {
  quick: { documents: 40, evidencePerClaim: 5 },
  standard: { documents: 150, evidencePerClaim: 8 },
} as const;

export type ResearchOptions = {
  depth?: keyof typeof DEPTHS;
  topic?: string | null;
  consentRef?: string | null;
  /** The day outcomes are judged on (YYYY-MM-DD, UTC); today by default. */
  today?: string;
  /** Claims researched at once. */
  concurrency?: number;
  /**
   * Told where the research is: at each stage boundary, and as claims are
   * judged (at most every second or every 10 claims). Counts never go down.
   * Called synchronously and not awaited: it must not throw, and it changes
   * nothing the research finds.
   */
  onProgress?: (p: JobProgress) => void;
};

/** Between stage boundaries, judged claims are reported at most this often. */
const PROGRESS_EVERY_MS = 1000;
const PROGRESS_EVERY_CLAIMS = 10;

export type ResearchStats = {
  documents: number;
  ambiguous_documents: number;
  claims: number;
  /** Wall-clock ms per stage; `evidence_search` is summed over claims researched concurrently. */
  ms: { discover: number; extract: number; evidence_and_judge: number; evidence_search: number; score: number; total: number };
};

export type ResearchResult =
  | { status: 'complete'; subject: KnownSubject; report: Record<string, unknown>; claims: JudgedClaim[]; stats: ResearchStats }
  | { status: 'insufficient' | 'refused'; subject: KnownSubject; reason: string; claims: JudgedClaim[]; stats: ResearchStats | null };

/** The rules of SPEC.md: a public figure (or a person with consent), never a serving politician. */
export function refusal(subject: KnownSubject, consentRef: string | null | undefined): string | null {
  if (subject.serving_politician) {
    return `${subject.name} holds political office now; the service makes no report on serving politicians.`;
  }
  if (!subject.public_figure && !consentRef) {
    return `${subject.name} is not a public figure; a report needs consent_ref, a reference to their consent.`;
  }
  return null;
}

export function subjectOut(s: KnownSubject) {
  return {
    subject_id: s.subject_id, name: s.name, kind: s.kind, aliases: s.aliases, description: s.description,
    public_figure: s.public_figure, serving_politician: s.serving_politician, demo: s.demo,
  };
}

export async function researchSubject(subject: KnownSubject, providers: Providers, opts: ResearchOptions = {}): Promise<ResearchResult> {
  const progress: JobProgress = { stage: 'identify', documents: 0, claims_found: 0, claims_judged: 0 };
  let toldAt = 0;
  let toldJudged = 0;
  const tell = (stage?: JobProgress['stage']) => {
    if (!opts.onProgress) return;
    const now = performance.now();
    if (!stage && progress.claims_judged - toldJudged < PROGRESS_EVERY_CLAIMS && now - toldAt < PROGRESS_EVERY_MS) return;
    if (stage) progress.stage = stage;
    toldAt = now;
    toldJudged = progress.claims_judged;
    opts.onProgress({ ...progress });
  };
  tell('identify');
  const refused = refusal(subject, opts.consentRef);
  if (refused) return { status: 'refused', subject, reason: refused, claims: [], stats: null };

  const depth = DEPTHS[opts.depth ?? 'quick'];
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  const t0 = performance.now();
  tell('discover');
  const { documents, ambiguous } = await discoverStatements(subject, providers, { limit: depth.documents });
  const t1 = performance.now();
  progress.documents = documents.length;
  tell('extract');

  const names = [subject.name, ...subject.aliases];
  const officers = subject.kind === 'person' ? [] : runOfficers(documents.map((d) => d.text), names);
  const ref = { name: subject.name, kind: subject.kind, aliases: subject.aliases, urls: subject.urls, description: subject.description, ...(officers.length ? { officers } : {}) };
  const seen = new Set<string>();
  const candidates: CandidateClaim[] = [];
  // A claim needs the date it was made: undated documents are passed over.
  const perDocument = await Promise.all(
    documents.filter((d) => d.published).map((doc) => extractStage(providers, { ...doc, published: doc.published! }, ref)),
  );
  for (const found of perDocument) {
    for (const c of found) {
      const key = `${c.source.url}\n${c.quote}`;
      if (!seen.has(key)) {
        seen.add(key);
        candidates.push(c);
      }
    }
  }
  const t2 = performance.now();
  progress.claims_found = candidates.length;
  tell('evidence');

  // One research run fetches the same documents for claim after claim: fetch each once.
  const fetched = new Map<string, ReturnType<Providers['fetch']['fetch']>>();
  const runProviders = {
    search: providers.search,
    fetch: { name: providers.fetch.name, fetch: (url: string) => fetched.get(url) ?? (fetched.set(url, providers.fetch.fetch(url)), fetched.get(url)!) },
  };
  let searchMs = 0;
  let evidenced = 0;
  const claims = await mapLimit(candidates, opts.concurrency ?? 8, async (c) => {
    const ts = performance.now();
    const docs = await findDocuments(c, runProviders, depth.evidencePerClaim);
    searchMs += performance.now() - ts;
    // Each claim is judged as soon as its evidence is in: the stage is `judge` once every claim has its evidence.
    if (++evidenced === candidates.length) tell('judge');
    const { evidence, verdict } = await assessStage(providers, { claim: c, subject, docs, limit: depth.evidencePerClaim, today });
    progress.claims_judged++;
    tell();
    return toJudgedClaim(subject.subject_id, c, evidence, verdict);
  });
  // Newest first, then by id: the order claims are listed in.
  claims.sort((a, b) => (b.said_on ?? '').localeCompare(a.said_on ?? '') || a.claim_id.localeCompare(b.claim_id));
  const t3 = performance.now();
  tell('score');

  const scored = scoreStage(claims, topicFilter(opts.topic));
  const t4 = performance.now();
  const stats: ResearchStats = {
    documents: documents.length,
    ambiguous_documents: ambiguous.length,
    claims: claims.length,
    ms: { discover: t1 - t0, extract: t2 - t1, evidence_and_judge: t3 - t2, evidence_search: searchMs, score: t4 - t3, total: t4 - t0 },
  };
  if (scored.status === 'insufficient') return { status: 'insufficient', subject, reason: scored.reason, claims, stats };

  const report = {
    subject: subjectOut(subject),
    method_version: methodVersion(),
    score: scored.score,
    scores: scored.scores,
    featured_claims: scored.featured_claims,
    caveats: scored.caveats,
    review_status: REVIEW_LABEL,
  };
  return { status: 'complete', subject, report, claims, stats };
}
