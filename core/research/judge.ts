import { AFTER_DUE_DAYS, DEFAULT_HORIZON_DAYS, FACT_WINDOW_DAYS, FIGURE_BANDS } from './criteria.ts';
import { figuresJudge } from './judge-figures.ts';
import { addDays, fragment, isAuthority, onTime, sentenceSpans } from './judge-text.ts';
import { wordingJudge } from './judge-wording.ts';
import { rankJudge } from './judge-rank.ts';
import { holdJudge } from './judge-hold.ts';
import type { CandidateClaim, EvidenceItem, JudgeOpinion, Verdict } from './types.ts';
import type { Finding, JudgeInput, UsableItem } from './judge-types.ts';
import type { Actors } from './grounding.ts';
import { isOutlook } from './classify.ts';
import { RESOLVED_OUTCOMES, isResolved, type Outcome, type ResolvedOutcome } from '../method/outcomes.ts';

// Stage "judge": two independent deterministic judges apply the claim's fixed test
// (criteria.ts) to the independent evidence, and their opinions are combined.
//
// What counts. Only items independent of the subject, with a known publication
// date no later than today, inside the fixed test's window: factual claims and
// guidance, sources published up to FACT_WINDOW_DAYS after the claim (earlier ones
// too: a fact about the past, or advice current when it was given); guidance only
// from authorities (public health, safety or regulatory bodies, research); promises
// and predictions, sources published on or after the day the claim was made, for
// predictions up to AFTER_DUE_DAYS after the due date. The promise test sets no
// such limit, because a promise done late is judged late, not unresolvable.
//
// When. A promise or prediction is due on its deadline, or DEFAULT_HORIZON_DAYS
// after it was made when it has none. Before that a promise may already be kept
// (a judge finds it kept in full, and no judge reads less); anything short of that,
// and any prediction (a forecast is judged at its date, and could still turn), is
// pending: the fixed test says false only once the date has passed.
//
// Combination rule. A judge that finds nothing it can read says unresolvable (or
// pending, when not yet due): it abstains, and does not disagree. If no judge
// resolves the claim, it is pending when not yet due, else unresolvable. If only
// some judges resolve it, or all that do agree, that outcome stands. If two
// resolved judges differ, judges_disagree is true and the outcome is the one
// nearer to `mixed` on the scale true…false (the more cautious reading); judges
// on opposite sides (one reads it held, another failed) contradict each other,
// and the claim is `unresolvable`: a wrong verdict costs more than an open one. Counting an abstention as
// disagreement would mark nearly every figure claim (the wording judge cannot
// weigh 641,200 against 640,000) and halve its weight for no reason a reader
// could see.
//
// on_time (promises only): from the passages behind the adopted outcome; any
// reading of late wins over on time; null when the promise is not resolved, when
// it was not kept at all (`false`), or when nothing tells.

export type { Finding, JudgeInput, JudgeOpinion, UsableItem, Verdict };

const JUDGES: ReadonlyArray<{ name: string; read: (input: JudgeInput) => Finding }> = [
  { name: 'figures', read: figuresJudge },
  { name: 'wording', read: wordingJudge },
  { name: 'ranks', read: rankJudge },
  { name: 'holds', read: holdJudge },
];

/** The fixed test a claim is judged by: an outlook (guidance that forecasts a figure) is judged as a forecast is. */
export function judgedAs(claim: Pick<CandidateClaim, 'claim_type' | 'quote'>): CandidateClaim['claim_type'] {
  return claim.claim_type === 'guidance' && isOutlook(claim.quote) ? 'prediction' : claim.claim_type;
}

/** When a promise or prediction falls due; null for factual claims and guidance. */
export function dueDate(claim: Pick<CandidateClaim, 'claim_type' | 'deadline' | 'said_on'>): string | null {
  if (claim.claim_type !== 'promise' && claim.claim_type !== 'prediction') return null;
  return claim.deadline ?? addDays(claim.said_on, DEFAULT_HORIZON_DAYS);
}

/** The publication dates the fixed test accepts evidence from (inclusive; null is open). */
export function evidenceWindow(claim: Pick<CandidateClaim, 'claim_type' | 'deadline' | 'said_on'>): { from: string | null; to: string | null } {
  const due = dueDate(claim);
  if (claim.claim_type === 'prediction' && due) return { from: claim.said_on, to: addDays(due, AFTER_DUE_DAYS) };
  if (claim.claim_type === 'promise') return { from: claim.said_on, to: null };
  return { from: null, to: addDays(claim.said_on, FACT_WINDOW_DAYS) };
}

type Sorted = { usable: UsableItem[]; own: EvidenceItem[]; outside: EvidenceItem[]; notAuthority: EvidenceItem[] };

function sortEvidence(claim: CandidateClaim, evidence: readonly EvidenceItem[], today: string): Sorted {
  const window = evidenceWindow(claim);
  const out: Sorted = { usable: [], own: [], outside: [], notAuthority: [] };
  // A canonical order, so that the verdict cannot depend on the order evidence arrives in.
  const ordered = [...evidence].sort((a, b) => (a.url + a.quote < b.url + b.quote ? -1 : a.url + a.quote > b.url + b.quote ? 1 : 0));
  for (const e of ordered) {
    if (!e.independent_of_subject) out.own.push(e);
    else if (!e.published || e.published > today || (window.from && e.published < window.from) || (window.to && e.published > window.to)) out.outside.push(e);
    else if (claim.claim_type === 'guidance' && !isAuthority(e.publisher)) out.notAuthority.push(e);
    else out.usable.push({ ...e, published: e.published, sentences: sentenceSpans(e.quote).map((s) => e.quote.slice(s.start, s.end)) });
  }
  return out;
}

function onTimeOf(claim: CandidateClaim, finding: Finding, due: string | null): boolean | null {
  if (claim.claim_type !== 'promise' || !due || !isResolved(finding.outcome) || finding.outcome === 'false') return null;
  const readings = finding.basis
    .filter((_b, i) => finding.signals?.[i] !== 'against')
    .map((b) => onTime(b.sentence, b.item.published, due));
  return readings.includes(false) ? false : readings.includes(true) ? true : null;
}

function opinionOf(claim: CandidateClaim, name: string, finding: Finding, due: string | null, today: string, keptEarly: boolean): JudgeOpinion {
  const early = due !== null && today < due;
  if (early && !(keptEarly && finding.outcome === 'true')) {
    return { judge: name, outcome: 'pending', on_time: null, reason: `Not yet due (it falls due on ${due}); so far, ${finding.reason.charAt(0).toLowerCase()}${finding.reason.slice(1)}` };
  }
  return { judge: name, outcome: finding.outcome, on_time: onTimeOf(claim, finding, due), reason: finding.reason };
}

const distanceFromMixed = (o: ResolvedOutcome) => Math.abs(RESOLVED_OUTCOMES.indexOf(o) - 2);

/** The combination rule (see the top of this file). */
export function combine(opinions: readonly JudgeOpinion[]): { outcome: Outcome; judges_disagree: boolean; adopted: JudgeOpinion[] } {
  const resolved = opinions.filter((o): o is JudgeOpinion & { outcome: ResolvedOutcome } => isResolved(o.outcome));
  if (resolved.length === 0) {
    return { outcome: opinions.some((o) => o.outcome === 'pending') ? 'pending' : 'unresolvable', judges_disagree: false, adopted: [] };
  }
  const outcomes = [...new Set(resolved.map((o) => o.outcome))];
  if (outcomes.length === 1) return { outcome: outcomes[0] as ResolvedOutcome, judges_disagree: false, adopted: resolved };
  // Judges on opposite sides (one reads it held, the other failed) contradict each other: the evidence
  // does not settle the claim, and a wrong verdict costs more than an open one.
  const side = (o: ResolvedOutcome) => Math.sign(RESOLVED_OUTCOMES.indexOf(o) - 2);
  if (outcomes.some((o) => side(o) < 0) && outcomes.some((o) => side(o) > 0)) return { outcome: 'unresolvable', judges_disagree: true, adopted: [] };
  const nearest = Math.min(...outcomes.map(distanceFromMixed));
  const closest = outcomes.filter((o) => distanceFromMixed(o) === nearest);
  const outcome: ResolvedOutcome = closest.length === 1 ? (closest[0] as ResolvedOutcome) : 'mixed';
  const adopted = resolved.filter((o) => o.outcome === outcome);
  return { outcome, judges_disagree: true, adopted: adopted.length ? adopted : resolved };
}

const cite = (e: Pick<EvidenceItem, 'publisher' | 'published'>) => `${e.publisher} (${e.published ?? 'undated'})`;
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** What the claim's fixed test asks for, in one sentence (the full text is the claim's resolution_criteria). */
export function testSummary(claim: CandidateClaim): string {
  const window = evidenceWindow(claim);
  const due = dueDate(claim);
  const [t, mt, mf] = FIGURE_BANDS;
  const bands = `a figure within ${pct(t.within)} of the source's is true, within ${pct(mt.within)} mostly_true, within ${pct(mf.within)} mostly_false, further off false`;
  switch (claim.claim_type) {
    case 'factual':
      return claim.figures.length
        ? `The fixed test compares the claim's figures with those of an independent source published on or before ${window.to}: ${bands}.`
        : `The fixed test needs an independent source published on or before ${window.to} that confirms or contradicts the statement.`;
    case 'promise':
      return `The fixed test needs independent sources showing the commitment carried out by ${due} (done later, it is kept late)${claim.figures.length ? ', and judges a figure by the share of it delivered' : ''}.`;
    case 'prediction':
      return `The fixed test needs independent sources published between ${window.from} and ${window.to} showing whether the forecast came about by ${due}${claim.figures.length ? `; ${bands}` : ''}.`;
    case 'guidance':
      return `The fixed test needs independent authorities (public health, safety or regulatory bodies, or research) current on ${claim.said_on} or published by ${window.to} that support the advice or advise against it.`;
  }
}

function rationale(claim: CandidateClaim, verdict: Omit<Verdict, 'rationale'>, adopted: readonly JudgeOpinion[], findings: Map<string, Finding>, sorted: Sorted, due: string | null, today: string): string {
  const parts: string[] = [];
  const window = evidenceWindow(claim);
  if (isResolved(verdict.outcome)) {
    const seen = new Set<string>();
    for (const o of adopted) {
      for (const b of findings.get(o.judge)?.basis ?? []) {
        if (seen.has(b.sentence) || seen.size >= 3) continue;
        seen.add(b.sentence);
        parts.push(`${cite(b.item)} wrote: "${fragment(b.sentence)}".`);
      }
    }
  }
  parts.push(testSummary(claim));
  for (const o of verdict.opinions) parts.push(`The ${o.judge} judge found ${o.outcome}: ${o.reason}`);
  if (verdict.judges_disagree) {
    const list = verdict.opinions.map((o) => `${o.judge}: ${o.outcome}`).join(', ');
    parts.push(verdict.outcome === 'unresolvable'
      ? `The judges disagree (${list}); they read it on opposite sides, so the evidence does not settle it.`
      : `The judges disagree (${list}); the outcome is the one nearer to mixed, ${verdict.outcome}.`);
  }
  if (verdict.outcome === 'pending') {
    parts.push(`It is not yet due: it falls due on ${due} and today is ${today}; no independent source so far shows it ${claim.claim_type === 'promise' ? 'already kept in full' : 'settled'}${claim.claim_type === 'prediction' ? `, and sources published up to ${window.to} will count` : ''}.`);
  } else if (verdict.outcome === 'unresolvable') {
    const when = due ? ` It fell due on ${due}.` : '';
    const range = window.to ? `published ${window.from ? `between ${window.from} and ` : 'on or before '}${window.to}` : `published since ${window.from}`;
    parts.push(`No independent source ${range} settles it, so it is unresolvable until one does.${when}`);
  } else if (claim.claim_type === 'promise' && due && verdict.outcome !== 'false') {
    const what = verdict.outcome === 'true' ? 'It was done' : 'What was done was done';
    parts.push(verdict.on_time === true ? `${what} by the deadline, ${due}.` : verdict.on_time === false ? `${what} after the deadline, ${due}, so it counts as late.` : `Whether it was done by ${due} is not shown.`);
  }
  if (sorted.own.length) parts.push(`Not counted: ${sorted.own.length} item(s) published by the subject or on its own sites (${sorted.own.slice(0, 3).map(cite).join('; ')}), which cannot settle its own claim.`);
  if (sorted.outside.length) parts.push(`Not counted: ${sorted.outside.length} independent item(s) outside the fixed test's window or undated (${sorted.outside.slice(0, 3).map(cite).join('; ')}).`);
  if (sorted.notAuthority.length) parts.push(`Not counted for guidance: ${sorted.notAuthority.length} item(s) from publishers that are not public health, safety or regulatory bodies or research (${sorted.notAuthority.slice(0, 3).map(cite).join('; ')}).`);
  return parts.join(' ');
}

/** The judge stage: the verdict on one claim from its evidence, as of `today` (YYYY-MM-DD). */
export function judgeClaim(published: CandidateClaim, evidence: readonly EvidenceItem[], today: string, actors?: Actors): Verdict {
  // An outlook (guidance on a body's own figures) is held to the actual at its date, as a prediction is.
  const claim: CandidateClaim = judgedAs(published) === 'prediction' ? { ...published, claim_type: 'prediction' } : published;
  const sorted = sortEvidence(claim, evidence, today);
  const due = dueDate(claim);
  const input: JudgeInput = { claim, items: sorted.usable, ...(actors ? { actors } : {}) };
  const findings = new Map(JUDGES.map((j) => [j.name, j.read(input)] as const));
  // Kept early only when a judge finds it kept in full and no judge reads anything short of that.
  const read = [...findings.values()].map((f) => f.outcome);
  // (So is a forecast that names no date and has already come about: "Joss Ambler will score a thousand runs" against a
  // season's final averages. One that has not come about yet may still, until the default horizon.)
  const keptEarly = (claim.claim_type === 'promise' || (claim.claim_type === 'prediction' && !claim.deadline)) && read.includes('true') && read.every((o) => o === 'true' || o === 'unresolvable');
  const opinions = JUDGES.filter((j) => findings.get(j.name)?.applies !== false).map((j) => opinionOf(claim, j.name, findings.get(j.name) as Finding, due, today, keptEarly));
  const combined = combine(opinions);
  // A claim of two parts ("we cut incidents by a third and we had no serious incidents") can hold in one and fail in
  // the other: judges on opposite sides then read different parts, and the claim is mixed, not open.
  const compound = /,?\s+and\s+(?:we|i|it|our|its|they|the|there|no|not)\b|;|\bbut\b/i.test(claim.quote);
  const { outcome, judges_disagree, adopted } = combined.outcome === 'unresolvable' && combined.judges_disagree && compound
    ? { ...combined, outcome: 'mixed' as const, adopted: opinions.filter((o) => isResolved(o.outcome)) }
    : combined;
  const times = adopted.map((o) => o.on_time);
  const on_time = !isResolved(outcome) || outcome === 'false' ? null : times.includes(false) ? false : times.includes(true) ? true : null;
  const verdict = { outcome, on_time, judges_disagree, opinions };
  return { ...verdict, rationale: rationale(claim, verdict, adopted, findings, sorted, due, today) };
}
