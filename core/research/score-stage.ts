import { scoreClaims, type ScoringResult } from '../method/score.ts';
import { TOPICS, type Topic } from '../method/outcomes.ts';
import type { JudgedClaim } from './claims.ts';

/**
 * Stage "score": the method of core/method applied to the judged claims. A
 * requested topic counts only when it names one of the method's topics
 * (otherwise the whole record is scored and the topic only steers nothing).
 */
export function topicFilter(topic: string | null | undefined): Topic | null {
  const t = topic?.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return t && (TOPICS as readonly string[]).includes(t) ? (t as Topic) : null;
}

export function scoreStage(claims: readonly JudgedClaim[], topic: Topic | null): ScoringResult {
  return scoreClaims(
    claims.map((c) => ({
      claim_id: c.claim_id,
      claim_type: c.claim_type,
      topic: c.topic,
      outcome: c.outcome,
      judges_disagree: c.judges_disagree,
      on_time: c.on_time,
      quote: c.quote,
      said_on: c.said_on ?? '',
      cluster: c.source.url,
    })),
    { topic },
  );
}
