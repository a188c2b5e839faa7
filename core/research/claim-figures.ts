import { readQuantities, direction, type Reading } from './quantities.ts';
import { contentStems, monthsIn, stem, words } from './judge-text.ts';
import { namesIn } from './grounding.ts';
import { changeYears, partOfYear } from './periods.ts';
import type { ClaimType } from './types.ts';

// The figures a claim states, as the judges check them (not a target or total it only names, nor a span of
// time that dates it, with "every one of N" read as 100% of them), and the figures a statement of fact
// implies without writing one (a change with no figure, "most"), which the figures judge alone reads.

/** The claimed figures a judge checks: not a target or total the claim only names, nor a span of time that dates it. */
export function checkedFigures(quote: string, type: ClaimType): Reading[] {
  const forward = type === 'promise' || type === 'prediction' || type === 'guidance';
  const read = readQuantities(quote).filter((f) => !f.denominator && !f.duration && !(f.target && f.threshold === null && type === 'factual') && !(forward && f.unit === 'duration'));
  // "We inspected every new report within ten days", "all 640 homes have been treated": a claim that
  // something held for every one of a kind says 100% of them, and a source's share of them answers it.
  if (type === 'factual' && !read.some((f) => f.unit === 'percent') && UNIVERSAL.test(quote) && !SERIES.test(quote)) {
    const at = quote.search(UNIVERSAL);
    const [base] = readQuantities('100%');
    // "all 640 homes have been treated": the 640 counts the homes the claim is about; 100% of them is the claim.
    const universe = read.find((r) => r.unit === 'count' && r.at > at && r.at - at <= 20);
    // Its period is the claim's own ("In December 2024 we completed … all 1,150"), when it names one.
    const dated = universe ?? readQuantities(quote)[0];
    if (base) read.push({ ...base, text: quote.slice(at).split(/\s+/).slice(0, 3).join(' '), at, context: readQuantities(quote)[0]?.context ?? new Set(), head: null, counted: universe?.counted, years: dated?.years ?? new Set(), months: dated?.months ?? new Set(), part: dated?.part ?? null });
    if (universe) return read.filter((r) => r !== universe);
  }
  return read;
}

/**
 * Figures a statement of fact implies without writing one, read by the figures judge alone when the claim
 * states none: a direction of change, and "most" as a share.
 */
export function impliedFigures(quote: string, type: ClaimType): Reading[] {
  // "Phosphate levels fell in 2024", "our average response time has not gone up": a change with no figure is a
  // bound on the change at nought (fell: below it; did not rise: at or below it), which a source's change answers.
  const moved = type === 'factual' && !SERIES.test(quote) && !SOME_PERIOD.test(quote) ? MOVED.exec(quote) : null;
  // (Two things said to move together, "print sales and web audience both grew", are two claims.)
  if (moved && /\b(?:both|and)\b/i.test(quote.slice(0, moved.index))) return [];
  // A change compared with others' ("grew faster than any other contractor", "rose more than elsewhere") says
  // how it ranks, which the change alone does not settle.
  if (moved && /\b(?:faster|slower|more|less|further|quicker)\b[^.;]{0,40}\b(?:than|among)\b/i.test(quote.slice(moved.index))) return [];
  if (moved) {
    const up = /^(?:rose|risen|rise|rises|rising|increased|grew|grown|went\s+up|gone\s+up|(?:is|are|was|were)\s+up)$/i.test(moved[2]!);
    const negated = !!moved[1];
    const threshold: Reading['threshold'] = up !== negated ? 'above' : 'below';
    // (A capital that only opens the sentence, "Knife crime …", names no one.)
    const names = new Set(namesIn(quote).filter((n) => !(n.initial && !n.text.includes(' '))).flatMap((n) => words(n.text)).map(stem));
    const context = new Set([...contentStems(quote)].filter((w) => !names.has(w) && direction(w) === 0));
    const years = changeYears('change', quote, quote);
    // What moved ("knife crime", "visitor numbers"): every word of it must measure the source's figure too.
    const what = new Set([...contentStems(quote.slice(0, moved.index))].filter((w) => !names.has(w) && direction(w) === 0));
    return [{ text: moved[0].trim(), at: moved.index, value: 0, low: 0, high: 0, unit: 'percent', kind: 'change', threshold, inclusive: negated, nearly: false, target: false, forecast: false, negated: false, duration: false, denominator: false, toLevel: null, head: null, counted: what, implied: true, context, years, months: monthsIn(quote), part: partOfYear(quote) }];
  }
  // "Most accidental house fires start in the kitchen", "the majority of pupils": more than half of them.
  const most = MOST.exec(quote);
  if (type === 'factual' && most) {
    const [half] = readQuantities('more than 50%');
    const all = readQuantities(quote);
    if (half) return [{ ...half, text: most[0].trim(), at: most.index, context: all[0]?.context ?? contentStems(quote), head: null, counted: new Set(), years: all[0]?.years ?? new Set(), months: all[0]?.months ?? new Set(), part: all[0]?.part ?? null }];
  }
  return [];
}

// "in a single quarter", "in any year": a claim about each period of a run, read as a series.
const SOME_PERIOD = /\b(?:a\s+single|any|each|every)\s+(?:year|quarter|month|week|season|day)\b/i;
// A verb of change, with a negation before it ("has not gone up", "did not rise").
const MOVED = /\b(?:(not|never|n['’]t)\s+(?:\w+\s+)?)?(rose|risen|rise|rises|rising|increased|grew|grown|went\s+up|gone\s+up|(?:is|are|was|were)\s+up|fell|fallen|falls|falling|dropped|declined|decreased|shrank|shrunk|went\s+down|gone\s+down|(?:is|are|was|were)\s+down)\b/i;
// "most" as a share (not "the most", "its most"): before a plural noun phrase of up to three words.
const MOST = /(?<!\b(?:the|a|an|our|its|their|his|her|my|your)\s)\b(?:most|the\s+majority)\s+(?:of\s+(?:the|our|its|their|these|those)\s+)?(?:[\p{L}-]+\s+){0,2}[\p{L}-]+s\b/iu;

// "every one of our 38 teams", "each of its branches", "all 12 restaurants": a claim about each member of a set.
export const EACH_OF = /\b(?:every\s+one\s+of|each\s+of|all)\s+(?:(?:our|its|their|the)\s+)?(?:\d[\d,]*|[a-z]+)\s+[a-z-]+s\b|\bevery\s+(?!year|quarter|month|week|day|season|time)[a-z-]+\b/i;
const UNIVERSAL = /\b(every|all)\s+(?!year|quarter|month|week|day|season|time)(?:\d[\d,]*\s+)?(?:of\s+(?:our|its|their|the)\s+)?[a-z]/i;
/** "every year since 2020", "each quarter": a claim about each period in a run of them. */
export const SERIES = /\b(every|each)\s+(?:single\s+)?(year|quarter|month|week|season)\b|\bin each of the\b/i;

