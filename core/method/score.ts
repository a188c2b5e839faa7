import { betaFromMoments, betaInterval } from './beta.ts';
import { judgeError, nodesForVerdicts, OVERALL_JUDGE_ERROR } from './judge-error.ts';
import {
  CLAIM_TYPES,
  RESOLVED_OUTCOMES,
  REVIEW_LABEL,
  creditOf,
  type ClaimType,
  type Topic,
} from './outcomes.ts';
import { sourceEffect } from './claim-weight.ts';
import { posterior, type Summary, type TypeEvidence } from './posterior.ts';
import { byId, featured } from './featured.ts';

// The scoring method of content/methodology.md, as one pure function. Every number
// here and in score-schemas.ts (its constants and shapes) is stated in that text; change one and the text together, then bump
// METHOD_SEMVER (the build id changes by itself). The model itself (the prior,
// the types' pooling, the judge error) is in posterior.ts, a claim's weight in
// claim-weight.ts, and the judges' measured confusion in judge-error.ts.

export * from './score-schemas.ts';
import {
  CONFIDENCE_RULES, LATE_PROMISE_PENALTY, MIN_RESOLVED, MIN_TYPE_RESOLVED,
  type Caveat, type Confidence, type ConfidenceLevel, type ScoreEntry, type Scores, type ScoringClaim, type ScoringResult,
} from './score-schemas.ts';

export type ScoreOptions = {
  /** Score only claims filed under this topic (a claim without a topic counts as `other`). */
  topic?: Topic | null;
};

type Counted = { claim: ScoringClaim; credit: number };

/** Credit a resolved claim counts for, or null when it is not resolved. */
export function countedCredit(claim: ScoringClaim): number | null {
  const base = creditOf(claim.outcome);
  if (base === null) return null;
  const late = claim.claim_type === 'promise' && claim.on_time === false;
  return late ? Math.max(0, base - LATE_PROMISE_PENALTY) : base;
}

function counted(claims: readonly ScoringClaim[]): Counted[] {
  const out: Counted[] = [];
  for (const claim of claims) {
    const credit = countedCredit(claim);
    if (credit !== null) out.push({ claim, credit });
  }
  return out;
}

// Ends are rounded outward so the published range never claims more certainty than
// the posterior has. The 1e-9 absorbs float noise such as 0.1 arriving as
// 0.09999999999999998, which would otherwise floor to 9.9.
const toPoints = (share: number) => Math.round(share * 1000) / 10;
const floorPoints = (share: number) => Math.max(0, Math.floor(share * 1000 + 1e-9) / 10);
const ceilPoints = (share: number) => Math.min(100, Math.ceil(share * 1000 - 1e-9) / 10);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function confidenceOf(width: number, n: number, nMachine: number): Confidence {
  const { high, medium } = CONFIDENCE_RULES;
  type Rule = { minResolved: number; maxWidth: number };
  const meets = (rule: Rule) => n >= rule.minResolved && width <= rule.maxWidth;
  const lacking = (rule: Rule) =>
    [width > rule.maxWidth ? `a range of at most ${rule.maxWidth} points` : null, n < rule.minResolved ? `at least ${rule.minResolved} resolved claims` : null]
      .filter((x) => x !== null)
      .join(' and ');
  const basis = `an 80% range ${width.toFixed(1)} points wide and ${plural(n, 'resolved claim')}`;
  const level: ConfidenceLevel = meets(high) ? 'high' : meets(medium) ? 'medium' : 'low';
  let reasons =
    level === 'high'
      ? `High: ${basis} meet the bar for high (a range of at most ${high.maxWidth} points and at least ${high.minResolved} resolved claims).`
      : level === 'medium'
        ? `Medium: ${basis} meet the bar for medium but not for high, which needs ${lacking(high)}.`
        : `Low: ${basis} fall short of medium, which needs ${lacking(medium)}.`;
  if (nMachine === 0) reasons += ' Every outcome was reviewed by a person.';
  else if (nMachine < n) reasons += ` ${nMachine} of the outcomes are machine verdicts; the range carries the judges' measured error on them.`;
  else reasons += " The outcomes are machine verdicts; the range carries the judges' measured error.";
  return { level, reasons };
}

const percentiles = (s: Summary): readonly [number, number] => s.interval ?? betaInterval(betaFromMoments(s.mean, s.variance), 0.1, 0.9);

/**
 * An entry from its posterior. `asReviewed`, when some verdicts are machine
 * ones: the posterior had a person given verdicts that say what the machine's
 * say, each type's machine credits read through the judges' line (their mean
 * c as (c − a) / b, within 0 and 1; see reviewedEvidence). A machine verdict
 * never says more than a person's: where the line cannot explain the credits
 * (machine verdicts averaging below what the judges give a claim that failed
 * entirely, or above what they give one that held), the posterior piles
 * against 0 or 1 and narrows. The range is then widened, evenly on both sides
 * and within 0 to 1, to the width that person's verdicts would give.
 * `mean`: the score's posterior mean (the posterior whose weights no credit
 * moves; see evidenceByType).
 */
function scoreEntry(mean: number, moments: Summary, resolved: readonly Counted[], asReviewed: Summary | null): ScoreEntry {
  let [lo, hi] = percentiles(moments);
  if (asReviewed) {
    const [rlo, rhi] = percentiles(asReviewed);
    const short = rhi - rlo - (hi - lo);
    if (short > 0) {
      lo -= short / 2;
      hi += short / 2;
      if (lo < 0) [lo, hi] = [0, hi - lo];
      if (hi > 1) [lo, hi] = [Math.max(0, lo - (hi - 1)), 1];
    }
  }
  const score = toPoints(mean);
  // A Beta this close to a posterior always holds its mean between the two
  // percentiles unless it is piled against 0 or 1, and the score's posterior
  // differs from it only in how much each claim weighs; should the score ever
  // lie outside, the range is widened to it.
  const interval: [number, number] = [Math.min(floorPoints(lo), score), Math.max(ceilPoints(hi), score)];
  const width = Math.round((interval[1] - interval[0]) * 10) / 10;
  const nMachine = resolved.filter((c) => c.claim.reviewed !== true).length;
  return { score, interval_80: interval, n_resolved: resolved.length, confidence: confidenceOf(width, resolved.length, nMachine) };
}

/**
 * Evidence of each claim type with resolved claims, in CLAIM_TYPES order:
 * `evidence` for the posterior the range is read from, each claim weighing
 * sourceEffect's `weight` and the judges' line as sure as the rows the
 * subject's machine verdicts come from; `scoreEvidence` for the posterior the
 * score is read from, each claim weighing `scoreWeight` and the line as sure
 * as its end rows, neither moved by any credit (claim-weight.ts).
 */
function evidenceByType(resolved: readonly Counted[]): { type: ClaimType; claims: Counted[]; evidence: TypeEvidence; scoreEvidence: TypeEvidence }[] {
  const { weight, scoreWeight } = sourceEffect(
    resolved.map((c) => ({
      credit: c.credit,
      cluster: c.claim.cluster ?? `claim:${c.claim.claim_id}`,
      slope: c.claim.reviewed === true ? 1 : judgeError(c.claim.claim_type).line.slope,
    })),
  );
  const out: { type: ClaimType; claims: Counted[]; evidence: TypeEvidence; scoreEvidence: TypeEvidence }[] = [];
  for (const type of CLAIM_TYPES) {
    const claims = resolved.filter((c) => c.claim.claim_type === type);
    if (claims.length === 0) continue;
    const reviewed = { a: 0, b: 0 };
    const machine = { a: 0, b: 0 };
    const scoreReviewed = { a: 0, b: 0 };
    const scoreMachine = { a: 0, b: 0 };
    for (const c of claims) {
      const [sums, scoreSums] = c.claim.reviewed === true ? [reviewed, scoreReviewed] : [machine, scoreMachine];
      sums.a += weight * c.credit;
      sums.b += weight * (1 - c.credit);
      scoreSums.a += scoreWeight * c.credit;
      scoreSums.b += scoreWeight * (1 - c.credit);
    }
    // The judges' line for this subject's machine verdicts: as sure as the gold rows they come from allow.
    const verdicts = RESOLVED_OUTCOMES.map((o) => claims.filter((c) => c.claim.reviewed !== true && c.claim.outcome === o).length);
    out.push({
      type,
      claims,
      evidence: { reviewed, machine, errorNodes: nodesForVerdicts(judgeError(type), verdicts), n: claims.length },
      scoreEvidence: { reviewed: scoreReviewed, machine: scoreMachine, errorNodes: judgeError(type).nodes, n: claims.length },
    });
  }
  return out;
}

/**
 * A type's evidence had a person given verdicts that say what its machine
 * verdicts say: their weight as it is, their mean credit c read through the
 * judges' line as the reliability it stands for, (c − a) / b within 0 and 1.
 * The machine's raw credits would not do: the judges under-credit claims that
 * held (a true factual claim earns 0.70), so the same credits from a person
 * would put the subject lower, where a range is wider, and the range of a
 * subject whose verdicts are good would be widened for nothing (method 1.7.0
 * did so: at 80 with ten to twenty machine verdicts it held the truth 86–94% of
 * the time).
 */
function reviewedEvidence(type: ClaimType, e: TypeEvidence): TypeEvidence {
  const total = e.machine.a + e.machine.b;
  if (total === 0) return e;
  const { intercept, slope } = judgeError(type).line;
  const said = Math.min(1, Math.max(0, (e.machine.a / total - intercept) / slope));
  return { ...e, reviewed: { a: e.reviewed.a + total * said, b: e.reviewed.b + total * (1 - said) }, machine: { a: 0, b: 0 } };
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Scores a subject's claims by the published method. Pure and deterministic: the
 * order of `claims` does not matter. Throws RangeError on a repeated claim_id,
 * because two claims with one id would make the featured choice order-dependent.
 */
export function scoreClaims(claims: readonly ScoringClaim[], options: ScoreOptions = {}): ScoringResult {
  const seen = new Set<string>();
  for (const c of claims) {
    if (seen.has(c.claim_id)) throw new RangeError(`claim_id ${c.claim_id} occurs more than once`);
    seen.add(c.claim_id);
  }
  const topic = options.topic ?? null;
  const inScope = [...claims].filter((c) => topic === null || (c.topic ?? 'other') === topic).sort(byId);
  const resolved = counted(inScope);
  const nPending = inScope.filter((c) => c.outcome === 'pending').length;
  const nUnresolvable = inScope.filter((c) => c.outcome === 'unresolvable').length;

  if (resolved.length < MIN_RESOLVED) {
    const scope = topic === null ? '' : ` under the topic "${topic}"`;
    return {
      status: 'insufficient',
      reason:
        `Only ${resolved.length} of the ${plural(inScope.length, 'claim')} found${scope} ${resolved.length === 1 ? 'is' : 'are'} resolved ` +
        `(${nPending} pending, ${nUnresolvable} unresolvable); a report needs at least ${MIN_RESOLVED} resolved claims.`,
      n_resolved: resolved.length,
      min_resolved: MIN_RESOLVED,
      n_claims: inScope.length,
      n_pending: nPending,
      n_unresolvable: nUnresolvable,
    };
  }

  const types = evidenceByType(resolved);
  const post = posterior(types.map((t) => t.evidence));
  const machineVerdicts = resolved.some((c) => c.claim.reviewed !== true);
  const reviewedPost = machineVerdicts ? posterior(types.map((t) => reviewedEvidence(t.type, t.evidence))) : null;
  // Reviewed verdicts weighed alike in both give the same posterior: one will do.
  const same = !machineVerdicts && types.every(({ evidence: e, scoreEvidence: s }) => e.reviewed.a === s.reviewed.a && e.reviewed.b === s.reviewed.b);
  const scorePost = same ? post : posterior(types.map((t) => t.scoreEvidence));
  const overall = scoreEntry(scorePost.overall.mean, post.overall, resolved, reviewedPost?.overall ?? null);
  const scores: Scores = { overall };
  const nMachine = inScope.filter((c) => c.reviewed !== true).length;
  const caveats: Caveat[] = [];
  if (nMachine > 0) {
    caveats.push({
      code: 'machine_generated',
      message:
        nMachine === inScope.length
          ? `Every outcome was set by machine judges and no person has reviewed them (${REVIEW_LABEL}).`
          : `${nMachine} of the ${plural(inScope.length, 'outcome')} were set by machine judges and no person has reviewed them (${REVIEW_LABEL}).`,
    });
  }
  if (topic !== null) caveats.push({ code: 'topic_filter', message: `Only claims filed under the topic "${topic}" are scored.` });
  if (overall.confidence.level === 'low') {
    caveats.push({ code: 'low_confidence', message: 'The 80% range is wide: read the score as a rough indication.' });
  }
  const nDisagree = resolved.filter((c) => c.claim.judges_disagree && c.claim.reviewed !== true).length;
  if (nDisagree > 0) {
    caveats.push({
      code: 'judges_disagree',
      message: `${nDisagree} of the ${resolved.length} resolved claims had judges who disagreed; they count as machine verdicts, with the judges' measured error (${percent(OVERALL_JUDGE_ERROR.wrongSide.rate)} of verdicts on the wrong side).`,
    });
  }
  const nLate = resolved.filter((c) => c.claim.claim_type === 'promise' && c.claim.on_time === false).length;
  if (nLate > 0) {
    caveats.push({
      code: 'late_promises',
      message: `${plural(nLate, 'resolved promise was', 'resolved promises were')} not met on time; each lost ${LATE_PROMISE_PENALTY} of its credit.`,
    });
  }
  for (const type of CLAIM_TYPES) {
    const ofType = inScope.filter((c) => c.claim_type === type);
    if (ofType.length === 0) continue;
    const i = types.findIndex((t) => t.type === type);
    if (i < 0) {
      caveats.push({
        code: 'type_not_resolved',
        message: `There ${ofType.length === 1 ? 'is' : 'are'} ${plural(ofType.length, `${type} claim`)} but none is resolved yet, so there is no ${type} score.`,
      });
    } else if (types[i]!.claims.length < MIN_TYPE_RESOLVED) {
      const k = types[i]!.claims.length;
      caveats.push({
        code: 'type_too_few',
        message: `Only ${plural(k, `${type} claim is`, `${type} claims are`)} resolved, fewer than the ${MIN_TYPE_RESOLVED} a type's score needs, so there is no ${type} score; ${k === 1 ? 'it counts' : 'they count'} in the overall score.`,
      });
    } else {
      scores[type] = scoreEntry(scorePost.types[i]!.mean, post.types[i]!, types[i]!.claims, reviewedPost?.types[i] ?? null);
    }
  }
  if (nPending > 0) caveats.push({ code: 'pending_claims', message: `${plural(nPending, 'claim is', 'claims are')} not yet due and not scored.` });
  if (nUnresolvable > 0) {
    caveats.push({ code: 'unresolvable_claims', message: `${plural(nUnresolvable, 'claim', 'claims')} could not be settled from the evidence and ${nUnresolvable === 1 ? 'is' : 'are'} not scored.` });
  }

  return {
    status: 'scored',
    score: { score: overall.score, interval_80: overall.interval_80, confidence: overall.confidence.level, n_resolved: overall.n_resolved },
    scores,
    featured_claims: featured(resolved),
    caveats,
  };
}
