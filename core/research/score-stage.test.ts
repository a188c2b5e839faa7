import { describe, expect, it } from 'vitest';
import type { JudgedClaim } from './claims.ts';
import { scoreStage, topicFilter } from './score-stage.ts';

const claim = (n: number, outcome: JudgedClaim['outcome'], topic: JudgedClaim['topic'] = 'health'): JudgedClaim => ({
  claim_id: `clm_${String(n).padStart(20, '0')}`, claim_type: 'factual', topic, quote: `Quote ${n}.`, quote_verified: true,
  said_on: '2025-01-01', source: { url: 'https://x.example', title: null, outlet: null, published: '2025-01-01' },
  resolution_criteria: 'A fixed test.', due: null, outcome, on_time: null, rationale: 'Because.', evidence: [], judges_disagree: false,
});

describe('score stage', () => {
  it('maps a requested topic onto the method\'s list, or none', () => {
    expect(topicFilter('Public safety')).toBe('public_safety');
    expect(topicFilter('housing')).toBe('housing');
    expect(topicFilter('cheese')).toBeNull();
    expect(topicFilter(null)).toBeNull();
  });

  it('scores judged claims with the method, and filters by topic', () => {
    const claims = [1, 2, 3, 4, 5, 6].map((n) => claim(n, n === 6 ? 'false' : 'true'));
    const all = scoreStage(claims, null);
    expect(all.status).toBe('scored');
    if (all.status === 'scored') expect(all.score.n_resolved).toBe(6);
    const other = scoreStage([...claims, claim(7, 'true', 'media')], 'media');
    expect(other.status).toBe('insufficient');
  });
});
