import { FIGURE_BANDS, FIGURE_FAR } from './criteria.ts';
import { band, delivered, distance } from './figure-bands.ts';
import { heldLevel } from './judge-hold.ts';
import { readQuantities, type Reading } from './quantities.ts';
import { partMeets } from './periods.ts';
import { beforeClaimedYear, datedByMonth, laterThan, latestYear, unfinishedYear } from './figure-periods.ts';
import { checkedFigures, EACH_OF, impliedFigures, SERIES } from './claim-figures.ts';
import { seriesFinding } from './judge-series.ts';
import { derivedChanges, isTableRow, readTableRow, sinceYear } from './table-figures.ts';
import { figureBelongsToOther, sentenceAbout } from './grounding.ts';
import type { JudgeInput, Finding } from './judge-types.ts';
import type { ResolvedOutcome } from '../method/outcomes.ts';
import type { ClaimType } from './types.ts';

// The figures judge: reads the numbers in the claim and in each independent passage,
// pairs each claimed figure with the passage figure that measures the same thing
// (same unit, same kind, same year, shared words), and applies the fixed test's bands.
// For promises it reads how much was delivered against what was promised. It says
// nothing about claims or passages without comparable figures.

export type { Reading } from './quantities.ts';
export { direction } from './quantities.ts';

/** The figures a sentence states, each with what it measures (quantities.ts). */
export function readFigures(sentence: string): Reading[] {
  return readQuantities(sentence);
}

/** The figures of an evidence sentence: a table row is read cell by cell under its column headings. */
function evidenceFigures(sentence: string, header: string | undefined): Reading[] {
  if (header && isTableRow(sentence)) return readTableRow(sentence, header);
  const read = readQuantities(sentence);
  // A share stated as two counts ("in only 410 of the 640 homes") or as all of a count ("all 38 trains are now in
  // service") is also read as a percentage, which a claim that every one of them was done is held to.
  const shares: Reading[] = [];
  read.forEach((d, i) => {
    const part = read[i - 1];
    if (d.denominator && part && part.unit === 'count' && d.unit === 'count' && d.value > 0 && part.value <= d.value) {
      const v = (100 * part.value) / d.value;
      shares.push({ ...part, text: `${part.text} of ${d.text}`, value: v, low: v, high: v, unit: 'percent', kind: 'level', counted: d.counted, head: d.head });
    }
  });
  for (const m of sentence.matchAll(/\b(?:all|every one of (?:the|its|our|their))\s+(\d[\d,]*)\s+(?!per\b)/gi)) {
    const d = read.find((r) => r.at === m.index + m[0].indexOf(m[1]!));
    if (d && d.unit === 'count' && !d.forecast && !d.negated && !d.target) shares.push({ ...d, text: m[0].trim(), value: 100, low: 100, high: 100, unit: 'percent', kind: 'level' });
  }
  return [...read, ...shares];
}

const meets = (a: Set<string>, b: Set<string>) => a.size === 0 || b.size === 0 || [...a].some((y) => b.has(y));
/** A split year ("2024/25") and the calendar years it runs across, for a side that names only calendar years. */
const spread = (years: Set<string>, other: Set<string>) =>
  [...other].some((y) => y.includes('/')) ? years : new Set([...years].flatMap((y) => (y.includes('/') ? [y, y.slice(0, 4), String(Number(y.slice(0, 4)) + 1)] : [y])));
/**
 * Same period: years in common (or unstated; a split year meets the calendar years it spans), months in
 * common when both name one, and the same quarter or half when the source names one (a quarter's figure
 * never answers a claim about a year; a claim about a quarter may be answered by the quarter's own report).
 */
const samePeriod = (c: Reading, e: Reading) =>
  meets(spread(c.years, e.years), spread(e.years, c.years)) && meets(c.months, e.months) && partMeets(c.part, e.part)
  // A year's figure does not answer a claim about one of its quarters ("grew by 0.4% in the second quarter").
  && !(c.part !== null && c.part !== 'end' && !c.part.startsWith('y') && e.part === null && e.years.size > 0 && e.months.size === 0);

/**
 * Whether a bound a source states settles a bound claimed the same way ("all staff are paid at least £13.50 an
 * hour" for "we will pay every member of staff at least £13.50"): only a floor as high or higher. A bound the
 * other way, or a lower one, says nothing of the claim's.
 */
function boundImplies(e: Reading, c: Reading): boolean {
  // (A floor only: a ceiling is as often what is on offer, "up to £15,000 towards a deposit", where a lower one
  // a source gives contradicts the claim rather than bearing it out.)
  if (c.threshold !== 'above' || e.threshold !== 'above' || c.kind !== e.kind || c.low !== c.high) return false;
  if (e.value === c.value) return e.inclusive === c.inclusive || !e.inclusive;
  return e.value > c.value;
}

/** How well a passage figure measures the same thing as a claimed one; null when it cannot. */
export function matchScore(c: Reading, e: Reading, type: ClaimType): number | null {
  // A target, a forecast, a bound or a denied figure in a passage is not an outcome (advice may be
  // worded either way), nor is the total a count is out of, nor a span of time that defines a measure.
  if (c.unit !== e.unit || e.target || e.negated || (e.threshold !== null && !boundImplies(e, c)) || e.denominator || e.duration || e.nearly) return null;
  if (e.forecast && type !== 'guidance') return null;
  if (!!c.rate !== !!e.rate) return null;
  // A promise's or forecast's month is its due date, not the period it measures: done in May against "by March" is late, not another thing.
  const forOutcome = type === 'promise' || type === 'prediction' || type === 'guidance';
  const period = forOutcome ? samePeriod({ ...c, months: new Set() }, e) : samePeriod(c, e);
  if (c.kind !== e.kind || !period) return null;
  // The level a change started from answers only the level a source gives as its start, and the reverse,
  // unless both name their years (then the period decides: "52% in 2023/24" answers a claim about 2023/24).
  // (A table cell, whose column gives its period, is neither.)
  if (e.base !== undefined && !!c.base !== e.base && (c.years.size === 0 || e.years.size === 0) && c.kind === 'level') return null;
  const [x, y] = [Math.abs(c.value), Math.abs(e.value)];
  if (c.unit !== 'percent' && c.unit !== 'points' && x > 0 && y > 0 && Math.max(x, y) / Math.min(x, y) > 10) return null;
  let score = [...c.context].filter((w) => e.context.has(w)).length;
  if (c.head && c.head === e.head) score += 3;
  // Figures that count the same thing ("all 38 Aurelia trains" for "every one of our 38 Aurelia trains").
  // (A share a claim makes of every one of a kind has no noun after it: what it counts is the kind.)
  if (c.head === null && c.counted?.size && e.counted?.size && [...c.counted].some((w) => e.counted!.has(w))) score += 2;
  if (score < 1) return null;
  // A count that names none of what the claim counts ("Suppliers installed 1.17 million smart meters" for "one
  // million homes") needs more than one word in common to be taken for the same measure (a table cell is named
  // by its headings, and is matched as they allow).
  if (c.unit === 'count' && e.counted?.size && c.counted?.size && ![...c.counted].some((w) => e.counted!.has(w) || e.context.has(w)) && score < 2) return null;
  // Counts of two named kinds of thing ("58 sailings" for "63 passengers"): different measures, whatever else
  // their sentences share.
  if (c.unit === 'count' && e.counted?.size && c.counted?.size && ![...c.counted].some((w) => e.counted!.has(w)) && ![...e.counted].some((w) => c.context.has(w)) && !(c.head && c.head === e.head)) return null;
  // Between figures of one sentence, the one whose own clause shares the claim's words other than the noun they
  // count ("net debt ended the year at $1.06 billion"; "on-time measure was 84.1%" for "88.6% of our trains arrived
  // on time", not "3.2% of its trains were cancelled", though both count trains).
  // (The claim's own clause, when it has several: "returned $480 million … and reduced net debt to below $1 billion".)
  return score + 3 * clauseShare(c, e) + 0.01 * [...c.context].filter((w) => e.clause?.has(w)).length;
}

/** The words of the claim's own clause, other than the noun it counts, that a passage figure's clause shares. */
function clauseShare(c: Reading, e: Reading): number {
  const own = c.clause?.size ? c.clause : c.context;
  return [...own].filter((w) => w !== c.head && e.clause?.has(w)).length;
}

const pct = (d: number) => (d === 0 ? 'no' : d < 0.001 ? 'under 0.1%' : `${(Math.round(d * 1000) / 10).toString()}%`);

/** A promise of an amount, held to the share of it delivered (or to the level it promised to reach). */
const delivery = (type: ClaimType, c: Reading) => type === 'promise' && c.low === c.high && c.kind === 'level' && c.unit !== 'percent' && c.unit !== 'points';

/** The outcome one claimed figure earns against the passage figure paired with it, and why. */
function figureOutcome(type: ClaimType, c: Reading, e: Reading): { outcome: ResolvedOutcome; why: string } {
  const against = `${c.text} against the reported ${e.text}`;
  if (c.threshold && e.threshold) return { outcome: 'true', why: `${against}: a bound as strict as the one claimed, so true` };
  if (c.threshold) {
    // A bound holds or it does not: "more than 500" against 499 is false, not nearly true.
    const dir = c.kind === 'change' && c.value !== 0 ? Math.sign(c.value) : 1;
    const got = dir * e.value;
    const bound = Math.abs(c.value);
    const met = c.threshold === 'above' ? (c.inclusive ? got >= bound : got > bound) : c.inclusive ? got <= bound : got < bound;
    const words = `${c.threshold === 'above' ? (c.inclusive ? 'at least' : 'more than') : c.inclusive ? 'no more than' : 'less than'} ${c.text.replace(/^(no more than|not more than|more than|less than|fewer than|at least|at most|up to|over|under|above|below)\s+/i, '')}`;
    return met ? { outcome: 'true', why: `${against}: ${words} as claimed, so true` } : { outcome: 'false', why: `${against}: not ${words}, so false` };
  }
  if (delivery(type, c)) {
    if (c.toLevel) {
      // "raise pay to $17", "cut leakage to 150": a level to reach, met or not.
      const up = c.toLevel === 'up';
      const met = up ? e.value >= c.value * (1 - FIGURE_BANDS[0].within) : e.value <= c.value * (1 + FIGURE_BANDS[0].within);
      return met ? { outcome: 'true', why: `${against}: the level promised was reached, so true` } : { outcome: 'false', why: `${against}: the level promised was not reached, so false` };
    }
    const o = delivered(c.value, e.high);
    return { outcome: o, why: `${e.text} delivered of the ${c.text} promised, so ${o}` };
  }
  if (c.low !== c.high) {
    // A range (or "nearly N") holds when the figure lies inside it; otherwise it is banded from the nearer end.
    if (e.value >= c.low && e.value <= c.high) return { outcome: 'true', why: `${against}: inside the ${c.nearly ? 'claimed figure' : 'range'}, so true` };
    const end = e.value < c.low ? c.low : c.high;
    const d = distance(end, e);
    return { outcome: band(d), why: `${against}: outside it, ${pct(d)} from its nearer end, so ${band(d)}` };
  }
  const d = distance(c.value, e);
  if (type === 'guidance' && c.forecast === false && !e.forecast) {
    return { outcome: band(d), why: `${against}: ${pct(d)} apart, so ${band(d)}` };
  }
  if (type === 'guidance' && e.forecast) {
    const o: ResolvedOutcome = d <= FIGURE_BANDS[0].within ? 'true' : 'mostly_true';
    return { outcome: o, why: `${against}: ${d <= FIGURE_BANDS[0].within ? 'the same figure' : 'different details'}, so ${o}` };
  }
  return { outcome: band(d), why: `${against}: ${pct(d)} apart, so ${band(d)}` };
}

const holds = (o: ResolvedOutcome) => o === 'true' || o === 'mostly_true';
/** How far a source's figure lies from the claimed one: from its nearer end for a claimed range, 0 inside it. */
const gap = (c: Reading, e: Reading) => (c.low !== c.high ? (e.value >= c.low && e.value <= c.high ? 0 : distance(e.value < c.low ? c.low : c.high, e)) : distance(c.value, e));
const nearMixed = (a: ResolvedOutcome, b: ResolvedOutcome): ResolvedOutcome => {
  const order = ['true', 'mostly_true', 'mixed', 'mostly_false', 'false'] as const;
  const [i, j] = [order.indexOf(a), order.indexOf(b)];
  return Math.abs(i - 2) <= Math.abs(j - 2) ? a : b;
};

/** Several figures: all hold or all fail gives the one nearest mixed; some each way is mixed (the fixed test's rule). */
export function combineFigures(outcomes: readonly ResolvedOutcome[]): ResolvedOutcome | null {
  if (outcomes.length === 0) return null;
  const held = outcomes.filter(holds);
  if (held.length > 0 && held.length < outcomes.length) return 'mixed';
  return outcomes.reduce(nearMixed);
}

/** The figures judge. */
export function figuresJudge(input: JudgeInput): Finding {
  const { claim, items } = input;
  // A level held to a date is the holds judge's: the held figure is no target to deliver.
  if ((claim.claim_type === 'promise' || claim.claim_type === 'prediction') && heldLevel(claim.quote)) return { outcome: 'unresolvable', reason: 'The claim holds a level to a date; the holds judge reads it.', basis: [], applies: false };
  const stated = checkedFigures(claim.quote, claim.claim_type);
  const claimed = (stated.length ? stated : impliedFigures(claim.quote, claim.claim_type)).map((c) => (claim.claim_type === 'factual' ? datedByMonth(c, claim.quote, claim.said_on) : c));
  if (!claimed.some((c) => c.threshold !== null)) {
    const run = seriesFinding(input);
    if (run) return run;
  }
  const results: Array<{ outcome: ResolvedOutcome; why: string; item: JudgeInput['items'][number]; sentence: string }> = [];
  // Claimed figures whose best match in the passages is too far off to be taken for their measure on its own
  // (criteria.ts, FIGURE_FAR).
  const far: typeof results = [];
  for (const c of claimed) {
    let best: { score: number; e: Reading; item: JudgeInput['items'][number]; sentence: string; tied?: boolean } | null = null;
    for (const item of items) {
      for (const sentence of item.sentences) {
        const derived = c.kind === 'change' && c.unit === 'percent' ? derivedChanges(sentence, item.table_header, sinceYear(claim.quote)) : [];
        const figures = [...evidenceFigures(sentence, item.table_header), ...derived];
        // When a sentence counts the claim's own thing ("two fire engines" beside "41 fire engines"), its counts of
        // other things ("28 firefighters") are not compared with the claim's.
        const counts = (e: Reading) => c.unit === 'count' && e.unit === 'count' && !!c.counted?.size && [...c.counted].some((w) => e.counted?.has(w));
        const sameThing = figures.some(counts);
        for (const e of figures) {
          if (sameThing && c.unit === 'count' && e.unit === 'count' && !counts(e)) continue;
          // A change read from the claim's words is held only to a source's change of that very thing.
          if (c.implied && ![...(c.counted ?? [])].every((w) => e.context.has(w))) continue;
          if (input.actors && !isTableRow(sentence) && figureBelongsToOther(sentence, e.at, input.actors)) continue;
          const matched = matchScore(c, e, claim.claim_type);
          if (matched === null) continue;
          // A sentence or table row that names the subject outranks one that is about it only by carrying on from
          // an earlier sentence ("Suppliers installed 1.17 million meters" beside "Brightwell Energy | 158,300").
          const score = matched + (input.actors && sentenceAbout(sentence, input.actors, item.publisher) === 'actor' ? 2 : 0);
          // A statement of fact is checked against its own time: a figure for a later period ("31,600 metres
          // between April 2023 and February 2025", against a claim made in 2024) measures something else.
          // (A claim that names the year itself, "the average bill in 2023 was £468", is taken at its word.)
          if (claim.claim_type === 'factual' && (laterThan(e, claim.said_on) || (c.years.size === 0 && unfinishedYear(e, claim.said_on)))) continue;
          // A year's figure is known only once the year is over: a figure naming no period, published before then, is
          // an earlier period's.
          if (claim.claim_type === 'factual' && item.published && beforeClaimedYear(c, e, item.published)) continue;
          // A forecast's outcome is known only once its period is over: a figure that names no period, in a source
          // published before the forecast fell due, is the figure of an earlier period ("margin slipped to 17.4%"
          // in March, against "around 17% for the year").
          if (claim.claim_type === 'prediction' && claim.deadline && e.years.size === 0 && e.months.size === 0 && item.published < claim.deadline) continue;
          // Two figures of one sentence that fit the claim equally well and read differently ("12 minutes 50
          // seconds in urban areas and 22 minutes 40 seconds in rural areas" for "about 22 minutes in the
          // countryside"): the sentence does not say which is the claim's, and neither is taken from it.
          // (Unless one of them shares more of the claim's own clause: "on-time measure was 84.1%" for "arrived on
          // time", over "3.2% of its trains were cancelled", though both count trains.)
          if (best && score === best.score && best.sentence === sentence && best.e !== e && !isTableRow(sentence) && clauseShare(c, e) === clauseShare(c, best.e) && figureOutcome(claim.claim_type, c, e).outcome !== figureOutcome(claim.claim_type, c, best.e).outcome) {
            best.tied = true;
            continue;
          }
          // Delivery is cumulative: for a promise, the latest report of it is the fullest.
          // A claim that names no period is about the latest one it could mean: of a row's cells for 2023 and 2024,
          // "ARR reached $412 million at year end", said in February 2025, is 2024's (later ones are left out above).
          const better = !best || score > best.score || (score === best.score && best.sentence === sentence && clauseShare(c, e) > clauseShare(c, best.e)) || (score === best.score && claim.claim_type === 'promise' && (item.published ?? '') > (best.item.published ?? ''))
            || (score === best.score && c.years.size === 0 && best.sentence === sentence && latestYear(e) > latestYear(best.e));
          if (better) best = { score, e, item, sentence };
        }
      }
    }
    if (SERIES.test(claim.quote) && c.threshold) {
      // A bound claimed for every period holds only if it holds in each period a source reports.
      const each: Array<{ e: Reading; item: JudgeInput['items'][number]; sentence: string }> = [];
      for (const item of items) for (const sentence of item.sentences) for (const e of evidenceFigures(sentence, item.table_header)) {
        // Each period of the run: any part of the claim's year ("in every quarter of 2024"), or any year of a run "since 2019".
        const within = /\bsince\b/i.test(claim.quote) ? { years: new Set<string>() } : {};
        if (matchScore({ ...c, ...within, months: new Set(), part: e.part }, e, claim.claim_type) !== null && e.years.size > 0) each.push({ e, item, sentence });
      }
      const failed = each.find((x) => figureOutcome(claim.claim_type, c, x.e).outcome !== 'true');
      if (each.length >= 2) {
        const where = failed ?? each[0]!;
        results.push({ outcome: failed ? 'false' : 'true', why: failed ? `${c.text} in every period, but ${failed.e.text} in ${[...failed.e.years].join(', ')}` : `${c.text} in each of ${each.length} periods reported`, item: where.item, sentence: where.sentence });
        continue;
      }
    }
    if (best && !best.tied) {
      const found = figureOutcome(claim.claim_type, c, best.e);
      // (A promise of an amount is read by the share delivered, however small: "12 delivered of the 20 promised". A
      // change a source states the other way, in a clause that shares the claim's own words, is the claim's measure
      // gone the other way: "prices will fall by about 10%" against "prices rose by 4%"; not a change worked out from
      // two figures, "climbing from 52nd to 41st".)
      const opposite = c.kind === 'change' && c.value * best.e.value < 0 && !best.e.text.includes('→') && clauseShare(c, best.e) > 0;
      // (Nor when the sentence names the claimed figure to deny it: "spent £18 million on track repairs, not £31 million".)
      const denied = readQuantities(best.sentence).some((q) => q.negated && q.unit === c.unit && Math.abs(q.value - c.value) <= Math.abs(c.value) * FIGURE_BANDS[0].within);
      if (!c.threshold && !delivery(claim.claim_type, c) && !opposite && !denied && gap(c, best.e) > FIGURE_FAR) {
        far.push({ ...found, item: best.item, sentence: best.sentence });
        continue;
      }
      // "Every one of our 38 teams has at least six officers": one team's six confirms nothing of the rest (it can
      // only refute); a source that speaks of all of them, or of their average or total, can confirm.
      const ofEach = claim.claim_type === 'factual' && EACH_OF.test(claim.quote) && c.unit !== 'percent';
      if (!(ofEach && holds(found.outcome) && !/\b(?:all|every|each|none|no|average|total|altogether)\b/i.test(best.sentence))) results.push({ ...found, item: best.item, sentence: best.sentence });
    }
  }
  // A figure that far off is the claim's own measure when the passages bear out another of its figures (the
  // source speaks of the same thing: "480,000 passengers and 9,000 sailings" against 480,000 and 2,100 is mixed);
  // alone, it settles nothing.
  if (results.some((r) => holds(r.outcome))) results.push(...far);
  else if (far.length > 0 && results.length === 0) {
    const list = far.map((r) => `${r.why.replace(/:.*$/, '')} (${r.item.publisher}, ${r.item.published ?? 'undated'})`).join('; ');
    return { outcome: 'unresolvable', reason: `No comparable figures: ${list}: more than ${FIGURE_FAR * 100}% apart, so taken to measure something else.`, basis: [] };
  }
  const outcome = combineFigures(results.map((r) => r.outcome));
  if (!outcome) {
    const why = claimed.length === 0 ? 'the claim states no figure it can compare' : 'no independent passage reports a figure that measures the same thing';
    return { outcome: 'unresolvable', reason: `No comparable figures: ${why}.`, basis: [] };
  }
  const reason = results.map((r) => `${r.why} (${r.item.publisher}, ${r.item.published ?? 'undated'})`).join('; ');
  return { outcome, reason: `${reason}.`, basis: results.map((r) => ({ item: r.item, sentence: r.sentence })) };
}
