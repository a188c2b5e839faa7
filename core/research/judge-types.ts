import type { Actors } from './grounding.ts';
import type { CandidateClaim, EvidenceItem } from './types.ts';
import type { Outcome } from '../method/outcomes.ts';

// What the judges (judge-figures, judge-wording, judge-rank, judge-series) take
// and give. Apart from judge.ts, which runs and combines them, so that no judge
// imports the module that imports it.

/** An evidence item the fixed test lets count, with its passage split into sentences. */
export type UsableItem = EvidenceItem & { published: string; sentences: string[] };
export type JudgeInput = { claim: CandidateClaim; items: readonly UsableItem[]; actors?: Actors };
export type Finding = {
  outcome: Outcome;
  reason: string;
  basis: Array<{ item: UsableItem; sentence: string }>;
  /** Per basis entry, what the wording judge read in it; absent for the figures judge. */
  signals?: Array<'support' | 'against' | 'partial'>;
  /** False when the claim is not of the judge's kind (the ranks judge on a claim with no place): it gives no opinion. */
  applies?: boolean;
};
