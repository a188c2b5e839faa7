import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAIM_TYPES, CREDITS, OUTCOMES, RESOLVED_OUTCOMES, REVIEW_LABEL, TOPICS } from './outcomes.ts';
import { SOURCE_CORRELATION, sourceEffect } from './claim-weight.ts';
import { OVERALL_JUDGE_ERROR } from './judge-error.ts';
import { GRID_POINTS, SUBJECT_PRIOR, TYPE_SPREAD } from './posterior.ts';
import { CONFIDENCE_RULES, LATE_PROMISE_PENALTY, MIN_RESOLVED, MIN_TYPE_RESOLVED, countedCredit, scoreClaims } from './score.ts';
import { scored, worked } from './score-fixtures.ts';

// The scoring method's text (content/methodology.md) against the code: its tables, constants and worked example.

describe('content/methodology.md states what the code does', () => {
  // Line breaks in the text are spaces to a reader.
  const text = readFileSync(new URL('../../content/methodology.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

  it('names every outcome with its credit, every claim type and every topic', () => {
    for (const o of RESOLVED_OUTCOMES) expect(text).toMatch(new RegExp(`\\| \`${o}\` \\| [^|]+ \\| ${CREDITS[o]} \\|`));
    for (const o of OUTCOMES) expect(text).toContain(`| \`${o}\` |`);
    for (const t of CLAIM_TYPES) expect(text).toContain(`| \`${t}\` |`);
    for (const t of TOPICS) expect(text).toContain(`| \`${t}\` |`);
  });

  it('states the prior, pooling, weights, penalty, minimums and confidence thresholds used by the code', () => {
    expect(text).toContain(`Beta(${SUBJECT_PRIOR.alpha}, ${SUBJECT_PRIOR.beta})`);
    expect(text).toContain(`Beta(${TYPE_SPREAD} × mu, ${TYPE_SPREAD} × (1 − mu))`);
    expect(text).toContain(`a grid of ${GRID_POINTS} points`);
    expect(text).toContain(`rho = ${SOURCE_CORRELATION.rho}`);
    expect(text).toContain(`as ${SOURCE_CORRELATION.weight} sources`);
    expect(text).toContain(`loses ${LATE_PROMISE_PENALTY} of credit`);
    expect(text).toContain(`at least **${MIN_RESOLVED}** resolved claims`);
    expect(text).toContain(`at least **${MIN_TYPE_RESOLVED}** resolved claims of its type`);
    const { high, medium } = CONFIDENCE_RULES;
    expect(text).toContain(`| \`high\` | ${high.maxWidth} points or less | ${high.minResolved} or more |`);
    expect(text).toContain(`| \`medium\` | ${medium.maxWidth} points or less | ${medium.minResolved} or more |`);
    expect(text).toContain(REVIEW_LABEL);
  });

  it('gives the worked example the numbers the code computes', () => {
    const r = scored(scoreClaims(worked));
    const [lo, hi] = r.score.interval_80;
    expect(text).toContain(`overall score is ${r.score.score}, its 80% range [${lo.toFixed(1)}, ${hi.toFixed(1)}], ${(hi - lo).toFixed(1)} points wide`);
    const f = r.scores.factual!;
    expect(text).toContain(`factual score is ${f.score}, its range [${f.interval_80[0].toFixed(1)}, ${f.interval_80[1].toFixed(1)}]`);
    const e = sourceEffect(
      worked
        .map((c) => ({ c, credit: countedCredit(c) }))
        .filter((x) => x.credit !== null)
        .map(({ c, credit }) => ({ credit: credit!, cluster: c.cluster!, slope: c.reviewed ? 1 : OVERALL_JUDGE_ERROR.line.slope })),
    );
    expect(text).toContain(`dispersion is ${e.dispersion.toFixed(2)}`);
  });
});
