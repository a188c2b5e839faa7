import type { ClaimType, Outcome, Topic } from '../method/outcomes.ts';
import { claimIdFor } from '../reports/ids.ts';
import type { EvidenceItem } from './evidence.ts';
import type { Verdict } from './types.ts';
import type { CandidateClaim } from './types.ts';

/**
 * A claim as the service publishes it (SPEC.md, "Claim"), less `responses`
 * and `review_status`, which are joined when it is served.
 */
export type JudgedClaim = {
  claim_id: string;
  claim_type: ClaimType;
  topic: Topic;
  quote: string;
  quote_verified: boolean;
  said_on: string | null;
  source: { url: string; title: string | null; outlet: string | null; published: string | null };
  resolution_criteria: string;
  due: string | null;
  outcome: Outcome;
  on_time: boolean | null;
  rationale: string;
  evidence: { url: string; publisher: string | null; published: string | null; quote: string; independent_of_subject: boolean }[];
  judges_disagree: boolean;
};

export function toJudgedClaim(subjectId: string, c: CandidateClaim, evidence: readonly EvidenceItem[], v: Verdict): JudgedClaim {
  return {
    claim_id: claimIdFor(subjectId, c.source.url, c.quote),
    claim_type: c.claim_type,
    topic: c.topic,
    quote: c.quote,
    quote_verified: c.quote_verified,
    said_on: c.said_on,
    source: { url: c.source.url, title: c.source.title || null, outlet: c.source.outlet || null, published: c.source.published },
    resolution_criteria: c.resolution_criteria,
    due: c.deadline,
    outcome: v.outcome,
    on_time: v.on_time,
    rationale: v.rationale,
    evidence: evidence.map((e) => ({ url: e.url, publisher: e.publisher || null, published: e.published, quote: e.quote, independent_of_subject: e.independent_of_subject })),
    judges_disagree: v.judges_disagree,
  };
}
