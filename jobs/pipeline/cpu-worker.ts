/**
 * The pipeline's CPU-bound steps, run on worker threads (cpu-pool.ts): reading
 * a document for claims, and reading fetched documents for evidence and
 * judging a claim. Pure functions of their input, so a thread gives the same
 * answer as the main thread would. The stages themselves are core/research/stage.ts.
 */
import { candidateClaims } from '../../core/research/criteria.ts';
import type { EvidenceItem } from '../../core/research/evidence.ts';
import { quoteFeatures } from '../../core/research/extract.ts';
import { offlineAssess, offlineExtract, offlineSelect, type AssessInput, type Assessment, type ExtractInput } from '../../core/research/stage.ts';
import type { CandidateClaim, Figure } from '../../core/research/types.ts';

export type ExtractTask = ExtractInput;
export type AssessTask = AssessInput;
export type { Assessment };
export type SelectTask = Omit<AssessTask, 'today'>;
export type Features = { entities: string[]; keywords: string[]; figures: Figure[] };

/** Loads the models (the first parse of a thread pays for compromise's lexicon and plugins). */
export function warm(): boolean {
  candidateClaims({ url: 'https://warm.example/', title: '', publisher: 'Warm Up', published: '2026-01-01', speakers: ['Warm Up'], text: 'We will open 3 new offices by March 2027.' }, { name: 'Warm Up', kind: 'organisation', aliases: [], urls: [] });
  return true;
}

export function extract(task: ExtractTask): CandidateClaim[] {
  return offlineExtract.run(task);
}

export function assess(task: AssessTask): Assessment {
  return offlineAssess.run(task);
}

/** Evidence only: for the model judges, which read the passages chosen here. */
export function select(task: SelectTask): EvidenceItem[] {
  return offlineSelect.run(task);
}

export function features(task: { quote: string }): Features {
  return quoteFeatures(task.quote);
}
