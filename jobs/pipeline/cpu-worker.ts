/**
 * The pipeline's CPU-bound steps, run on worker threads (cpu-pool.ts): reading
 * a document for claims, and reading fetched documents for evidence and
 * judging a claim. Pure functions of their input, so a thread gives the same
 * answer as the main thread would.
 */
import type { FetchedDocument, KnownSubject } from '../../core/providers/types.ts';
import { candidateClaims } from './criteria.ts';
import { selectEvidence, type EvidenceItem } from './evidence.ts';
import { judgeClaim, type Verdict } from './judge.ts';
import { quoteFeatures } from './extract.ts';
import { claimActors } from './grounding.ts';
import type { CandidateClaim, Figure, SourceDocument, SubjectRef } from './types.ts';

export type ExtractTask = { doc: SourceDocument; ref: SubjectRef };
export type AssessTask = { claim: CandidateClaim; subject: KnownSubject; docs: FetchedDocument[]; limit: number; today: string };
export type Assessment = { evidence: EvidenceItem[]; verdict: Verdict };
export type SelectTask = Omit<AssessTask, 'today'>;
export type Features = { entities: string[]; keywords: string[]; figures: Figure[] };

/** Loads the models (the first parse of a thread pays for compromise's lexicon and plugins). */
export function warm(): boolean {
  candidateClaims({ url: 'https://warm.example/', title: '', publisher: 'Warm Up', published: '2026-01-01', speakers: ['Warm Up'], text: 'We will open 3 new offices by March 2027.' }, { name: 'Warm Up', kind: 'organisation', aliases: [], urls: [] });
  return true;
}

export function extract(task: ExtractTask): CandidateClaim[] {
  return candidateClaims(task.doc, task.ref);
}

export function assess(task: AssessTask): Assessment {
  const evidence = selectEvidence(task.claim, task.subject, task.docs, task.limit);
  return { evidence, verdict: judgeClaim(task.claim, evidence, task.today, claimActors(task.claim.quote, task.subject)) };
}

/** Evidence only: for the model judges, which read the passages chosen here. */
export function select(task: SelectTask): EvidenceItem[] {
  return selectEvidence(task.claim, task.subject, task.docs, task.limit);
}

export function features(task: { quote: string }): Features {
  return quoteFeatures(task.quote);
}
