import type { Finding, JudgeInput, UsableItem } from './judge-types.ts';
import { readQuantities, type Reading } from './quantities.ts';
import { dateEnds, MONTHS } from './judge-text.ts';

// The holds judge (methodology, "Holds"): a promise or forecast that a level
// stays where it is until a date ("we will keep the adult single fare at £2
// until the end of March", "the day ticket will stay frozen at £5.50
// throughout 2025") is broken by a change of that level dated on or before
// the date, and kept by a change dated after it, or by a source after the date
// that reports the level unchanged. A source that reports the change without
// a date tells nothing of when it came. It says nothing of other claims.

const HOLD = /\b(?:keep|keeps|kept|hold|holds|held|freeze|freezes|frozen|stay|stays|remain|remains|cap|capped)\b[^.;]{0,60}?\bat\s+/i;
const UNTIL = /\b(?:until|till|through|throughout|for the whole of|for all of|for the rest of)\b/i;
const CHANGE = /\b(?:went up|goes up|go up|rose|rises|risen|increased|increases|raised|went down|fell|cut|reduced|lowered|changed)\b/i;
const UNCHANGED = /\b(?:still|stayed|remained|unchanged|held|frozen|kept|did not change|has not changed|had not changed)\b/i;
const NEGATED_CHANGE = /\b(?:not|never|no)\b[^.;]{0,20}\b(?:went up|go up|rise|rose|increase|increased|change|changed)\b|\bn['’]t\s+(?:go up|rise|increase|change)\b/i;

/** The level a claim says will hold, or null when the claim is not a hold. */
export function heldLevel(quote: string): Reading | null {
  const at = HOLD.exec(quote);
  if (!at || !UNTIL.test(quote.slice(at.index))) return null;
  const after = at.index + at[0].length;
  const level = readQuantities(quote).find((r) => r.at >= after - 1 && (r.unit === 'money' || r.unit === 'percent'));
  return level ?? null;
}

/** When a sentence dates what it reports: a full date, or a day and month placed in the year it was published (or the year before, if that day is still to come). */
function dateOf(sentence: string, published: string): string | null {
  const full = dateEnds(sentence).filter((d) => !d.endsWith('-12-31') || /\b31\s+december\b|\bdecember\s+31\b/i.test(sentence));
  if (full.length) return full[0]!;
  const m = new RegExp(String.raw`\b(\d{1,2})\s+(${MONTHS.join('|')})\b|\b(${MONTHS.join('|')})\s+(\d{1,2})\b`, 'i').exec(sentence);
  if (!m) return null;
  const day = Number(m[1] ?? m[4]);
  const month = MONTHS.indexOf((m[2] ?? m[3] ?? '').toLowerCase()) + 1;
  let year = Number(published.slice(0, 4));
  const iso = (y: number) => `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (iso(year) > published) year -= 1;
  return iso(year);
}

// ("from £2 to £2.30" is read as a span; either end may be the held level.)
const same = (a: Reading, b: Reading) => a.unit === b.unit && [b.value, b.low, b.high].some((v) => Math.abs(Math.abs(v) - Math.abs(a.value)) <= Math.abs(a.value) * 0.005);

export function holdJudge(input: JudgeInput): Finding {
  const { claim, items } = input;
  const level = claim.claim_type === 'promise' || claim.claim_type === 'prediction' ? heldLevel(claim.quote) : null;
  const due = claim.deadline;
  if (!level || !due) return { outcome: 'unresolvable', reason: 'The claim holds no level to a date.', basis: [], applies: false };
  const broken: Array<{ item: UsableItem; sentence: string; when: string }> = [];
  const kept: Array<{ item: UsableItem; sentence: string; when: string; changed: boolean }> = [];
  for (const item of items) {
    for (const sentence of item.sentences) {
      // The sentence must state the held level itself ("from £2 to £2.30", "still cost £5.50").
      if (!readQuantities(sentence).some((r) => same(level, r))) continue;
      const when = dateOf(sentence, item.published);
      if (CHANGE.test(sentence) && !NEGATED_CHANGE.test(sentence)) {
        if (!when || when < claim.said_on) continue;
        if (when <= due) broken.push({ item, sentence, when });
        else kept.push({ item, sentence, when, changed: true });
      } else if ((UNCHANGED.test(sentence) || NEGATED_CHANGE.test(sentence)) && item.published > due) {
        kept.push({ item, sentence, when: item.published, changed: false });
      }
    }
  }
  const name = `${level.text} until ${due}`;
  if (broken.length) {
    const b = broken[0]!;
    return { outcome: 'false', reason: `${b.item.publisher} (${b.item.published}) reports the level changed on ${b.when}, before the end of the hold (${name}), so false.`, basis: broken.map(({ item, sentence }) => ({ item, sentence })) };
  }
  if (kept.length) {
    const k = kept[0]!;
    return { outcome: 'true', reason: `${k.item.publisher} (${k.item.published}) reports the level held past the end of the hold (${name}): ${k.changed ? `it changed only on ${k.when}` : 'unchanged'}, so true.`, basis: kept.map(({ item, sentence }) => ({ item, sentence })) };
  }
  return { outcome: 'unresolvable', reason: `No independent passage dates a change of the held level (${name}).`, basis: [] };
}
