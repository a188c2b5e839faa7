import { direction, readFigures } from './judge-figures.ts';
import { checkedFigures } from './claim-figures.ts';
import { termsOf, verbUses } from './verb-uses.ts';
import { rankCondition } from './judge-rank.ts';
import { claimTerms, isContent, overlap, stem, TAIL, words, type ClaimTerms } from './judge-text.ts';
import { periodYears } from './periods.ts';
import { BODY_NOUNS, isFacilityName, namesClaimPlace, namesIn } from './grounding.ts';
import type { Finding, JudgeInput, UsableItem } from './judge-types.ts';
import type { Outcome } from '../method/outcomes.ts';
import { COMPLETE, FAIL, NON_ACTION, RECORD, NOT_RECORD, EVERY_PERIOD, EVERY_PERIOD_NEGATED, ANY_PERIOD, SHARE_OF, COMPARISON, EXCLUSIVE, NOT_EXCLUSIVE, EXCEPT, WRONG, UNCONFIRMED, SHORTFALL, FIRST_PERSON, MOSTLY, EVERY_ONE, SOME_OF, DESPITE_PROMISE, CONTINUING, ADVISE_AGAINST } from './wording-cues.ts';

// The wording judge: reads what independent passages say in words, not numbers.
// A passage confirms a claim when it reports the claimed deed or event done
// (the claim's own verb or a verb of completion, not negated, not in the future),
// or restates the claim outright; it contradicts it when that verb is negated,
// when it reports failure ("missed", "scrapped") or says the claim is wrong, or
// when it reports a change the other way. Negation and tense come from
// compromise's tags. For guidance it asks whether an authority gives the same
// advice (same action, same polarity) or the opposite.

type Signal = 'support' | 'against' | 'partial';



/**
 * The claim's own action verbs: what it says was, will be or should be done, and
 * whether it says it negatively ("nobody should take", "do not use"). For advice
 * only the first is the advised action: "check the website before paying" advises
 * checking, and says nothing for or against paying.
 */
function actionsOf(quote: string, advice: boolean): { stems: Set<string>; negative: boolean } {
  // A clause that only dates the claim ("since the station closed", "after the lifts opened") holds no action of it.
  const own = advice ? quote : quote.replace(/\b(?:since|after|before|until|when|once)\s+(?:the|its|our|their|it|we|they)\b[^,.;]*/gi, ' ');
  const uses = verbUses(own).filter((u) => !NON_ACTION.has(u.stem));
  const kept = advice ? uses.slice(0, 1) : uses;
  const negative = kept.some((u) => u.negative) || /^\s*(please\s+)?(nobody|no one|never|do not|don't)\b/i.test(quote);
  return { stems: new Set(kept.map((u) => u.stem)), negative };
}

/** Whether a sentence states the claim's kind of figure with a different value: then only the figures judge may read it. */
function figuresDiffer(claimQuote: string, sentence: string, forward: boolean): boolean {
  // In a promise or forecast a span of time ("within six months") says when, which the deadline already holds.
  const claimed = readFigures(claimQuote).filter((f) => !(forward && f.duration));
  if (claimed.length === 0) return false;
  const stated = readFigures(sentence).filter((f) => !f.target && !(forward && f.duration));
  return stated.some((s) => claimed.some((c) => c.unit === s.unit) && !claimed.some((c) => c.unit === s.unit && Math.abs(c.value) === Math.abs(s.value)));
}

type Read = { signal: Signal; item: UsableItem; sentence: string; why: string };

/** Whether two texts name years in common (a split year "2024/25" meets 2024 and 2025); true when either names none. */
function sameYears(a: string, b: string): boolean {
  // (A year that only opens a span or names a base, "since March 2025", "than in 2023", is not the sentence's period.)
  const strip = (t: string) => t.replace(/\b(?:since|from|than|compared with|on)\s+(?:the\s+)?(?:start\s+of\s+)?(?:\d{1,2}\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+)?(?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?/gi, ' ');
  const spread = (t: string) => new Set([...periodYears(strip(t))].flatMap((y) => (y.includes('/') ? [y.slice(0, 4), String(Number(y.slice(0, 4)) + 1)] : [y])));
  const [x, y] = [spread(a), spread(b)];
  return x.size === 0 || y.size === 0 || [...x].some((v) => y.has(v));
}

function readSentence(input: JudgeInput, ct: ClaimTerms, item: UsableItem, sentence: string): Read[] {
  const { claim } = input;
  const { score: cov, shared } = overlap(ct, sentence);
  // What the sentence shares with the claim beyond names: a place or a company alone does not make it about the claim.
  const plain = shared.filter((w) => !ct.names.has(w));
  if (cov < 0.25 || plain.length === 0) return [];
  // A sentence about another year does not speak to a claim about this one ("prices rose in the year to December
  // 2025" against "house prices will not fall in 2024").
  // (A deadline's year is not the claim's period: a deed done before "by March 2025" is done.)
  if (!sameYears(claim.quote.replace(/\b(?:by|before|until|till|no later than|ahead of|within)\s+(?:the\s+)?(?:end\s+of\s+)?(?:the\s+)?(?:[\p{L}]+\s+){0,2}(?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?/giu, ' '), sentence)) return [];
  const about = (verb?: string) => plain.filter((w) => w !== verb).length >= (verb ? 1 : 2);
  const out: Read[] = [];
  const say = (signal: Signal, why: string) => out.push({ signal, item, sentence, why });
  if (UNCONFIRMED.test(sentence)) return out;
  const uses = verbUses(sentence);
  const guidance = claim.claim_type === 'guidance';
  const actions = actionsOf(claim.quote, guidance);
  const forward = claim.claim_type === 'promise' || claim.claim_type === 'prediction';
  if (guidance) {
    if (ADVISE_AGAINST.test(sentence) && about()) say('against', 'advises against it');
    const same = uses.filter((u) => actions.stems.has(u.stem) && about(u.stem));
    for (const u of same) say(u.negative === actions.negative ? 'support' : 'against', u.negative === actions.negative ? 'gives the same advice' : 'gives the opposite advice');
    if (same.length === 0 && cov >= 0.5 && about() && !uses.some((u) => u.negative) && !actions.negative) say('support', 'gives the same advice in other words');
    return out;
  }
  // What the claim is about, in nouns: a sentence must share them (two, or the claim's only one) to
  // speak to it at all; a shared verb or a shared word such as "missed" is not enough.
  const nouns = claimNouns(claim.quote, ct);
  const sentenceStems = new Set(words(sentence).map(stem));
  const sharedNouns = [...nouns].filter((n) => sentenceStems.has(n));
  // A change the other way of the very thing the claim says changed ("Complaints fell" against "Complaints
  // rose by 14%"): the noun the claim's direction word speaks of, with the opposite word beside it.
  const moved = movedNoun(claim.quote);
  if (moved && !claim.quote.match(NEGATIVE_CLAIM) && sentenceStems.has(moved.noun) && claim.claim_type !== 'guidance') {
    const ds = directionOf(sentence, [moved.noun]);
    if (ds !== 0 && ds !== moved.dir && !uses.some((u) => u.negative)) {
      say('against', `reports a ${ds > 0 ? 'rise' : 'fall'} in ${moved.noun} where the claim has a ${moved.dir > 0 ? 'rise' : 'fall'}`);
      return out;
    }
  }
  // "our highest total ever" against "its most since 2019/20": a record the source says is not one. With a
  // figure beside the record ("436 homes, our highest ever"), the figure is the figures judge's: the claim is then mixed at best.
  if (claim.claim_type === 'factual' && RECORD.test(claim.quote) && NOT_RECORD.test(sentence) && plain.length >= 2) {
    say(checkedFigures(claim.quote, claim.claim_type).length ? 'partial' : 'against', 'reports it is not a record');
    return out;
  }
  // (A place the claim names or calls "the hall", named here in full, is one more thing the two share.)
  const placeNamed = input.actors && namesClaimPlace(sentence, input.actors) ? 1 : 0;
  if (sharedNouns.length + placeNamed < Math.min(2, nouns.size) || sharedNouns.length === 0) return out;
  // "We have not had a single finding of severe maladministration since April 2024": a source that reports
  // such a finding contradicts it.
  const none = NONE_EXISTS.exec(claim.quote.replace(BOUNDS, ' '));
  // (A promise or forecast that there will be none is answered the same way once it has been reported.)
  if (none && (claim.claim_type === 'factual' || claim.claim_type === 'promise' || claim.claim_type === 'prediction')) {
    // (What there was none of is its nouns; a noun the tagger reads as a verb, "finding", is taken as written.)
    const named = words(none[1]!).map(stem);
    const thing = named.some((w) => nouns.has(w)) ? named.filter((w) => nouns.has(w)) : named.filter((w) => isContent(w));
    if (thing.length && thing.every((w) => sentenceStems.has(w)) && !/\b(no|not|never|none|without)\b|n['’]t\b/i.test(sentence) && !WRONG.test(sentence)) {
      say('against', `reports ${none[1]!.trim()} where the claim says there was none`);
      return out;
    }
  }
  // "every year since 2019" against "in every year since 2019-20 except 2021-22": the run was broken.
  if (EVERY_PERIOD.test(claim.quote) && !EVERY_PERIOD_NEGATED.test(claim.quote) && EXCEPT.test(sentence) && sharedNouns.length >= Math.min(2, nouns.size)) {
    say('against', 'reports a period that breaks the run the claim says held every time');
    return out;
  }
  const claimed = checkedFigures(claim.quote, claim.claim_type);
  const differ = figuresDiffer(claim.quote, sentence, forward);
  // A statement of fact or a forecast with figures is confirmed by its figures, never by words around other numbers (a
  // promise of a deed may be reported done in words; "scored 846 runs" does not bear out "will score a thousand").
  // A promise of a number of deeds ("open 150 warm hubs") is kept in full only when the number done is reported;
  // a report of some done ("the hubs opened") is the figures judge's to weigh.
  const countedPromise = claim.claim_type === 'promise' && claimed.some((c) => c.unit === 'count' && c.value > 1);
  const figuresStated = (claim.claim_type === 'promise' && !countedPromise) || claimed.length === 0 || claimed.every((c) => readFigures(sentence).some((e) => !e.denominator && !e.target && e.unit === c.unit && Math.abs(Math.abs(e.value) - Math.abs(c.value)) <= Math.abs(c.value) * 0.02));
  // Grounded evidence (input.actors) is already about the speaker; without it, a "we" claim needs the speaker named.
  const speakerNamed = input.actors !== undefined || !(claim.claim_type === 'factual' && FIRST_PERSON.test(claim.quote)) || words(claim.speaker).some((w) => w.length >= 4 && isContent(w) && words(sentence).includes(w));
  const claimNegative = actions.negative || NEGATED_PREDICATE.test(claim.quote.replace(BOUNDS, ' '));
  // Confirming a factual claim in words takes most of what it is about, not two words of it.
  const enough = claim.claim_type !== 'factual' || sharedNouns.length >= Math.max(Math.min(2, nouns.size), Math.ceil(0.6 * nouns.size));
  // (A claim of a deed of completion, or of none the tagger reads, "will be on air"; read from its words too.)
  const completing = actions.stems.size === 0 || [...actions.stems, ...words(claim.quote).map(stem)].some((a) => COMPLETE.has(a));
  for (const u of uses) {
    if (!about(u.stem)) continue;
    // Failure words speak to a commitment or a forecast, whose deed the sentence names.
    if (forward && FAIL.has(u.stem) && !u.negative) say('against', `reports it ${u.stem === stem('deny') ? 'denied' : 'failed'}`);
    if (!actions.stems.has(u.stem) && !(forward && COMPLETE.has(u.stem) && !claimNegative && completing)) continue;
    if (u.future) continue;
    const sentenceNegative = u.negative;
    if (sentenceNegative !== claimNegative) say('against', claimNegative ? 'reports it done, where the claim says it was not' : 'says it was not done');
    else if (!differ && figuresStated && speakerNamed && enough && !(claim.claim_type === 'factual' && SHARE_OF.test(claim.quote)) && !(COMPARISON.test(claim.quote) && !COMPARISON.test(sentence))) {
      // "Every clinic will offer evening appointments" against "11 of the 40 clinics offered them": some, not all.
      if (EVERY_ONE.test(claim.quote) && SOME_OF.test(sentence)) say('partial', 'reports it done by some of them only');
      // "The clinics will stay open until the end of March": only a source from the end of that time can say they did.
      else if (forward && CONTINUING.test(claim.quote) && claim.deadline && item.published < claim.deadline) continue;
      else say('support', forward ? 'reports it done' : 'confirms it in the same words');
    }
  }
  // "the only one to grow its land bank" against "was not alone in adding land".
  if (EXCLUSIVE.test(claim.quote) && NOT_EXCLUSIVE.test(sentence)) say('against', 'says others did it too');
  // ("Delayed" alone settles nothing, since a promise kept late is kept; beside a report of the deed, on_time reads it.)
  // (A claim that itself owns to an error — "we got one figure wrong" — is not contradicted by a source that says the same.)
  if (WRONG.test(sentence) && !WRONG.test(claim.quote)) {
    // A sentence that repeats the claim in order to call it wrong does not also confirm it.
    out.splice(0, out.length, ...out.filter((r) => r.signal !== 'support'));
    say('against', 'says it is wrong or not done');
  }
  if (forward && SHORTFALL.test(sentence)) say('partial', 'reports a shortfall');
  // (Of this promise: the sentence states its figures, if it has any; "adult tickets at £425, despite the pledge of no
  // more than £400" says nothing of a promise that under-18 tickets stay at £99.)
  const ownFigures = claimed.length === 0 || claimed.some((c) => readFigures(sentence).some((e) => e.unit === c.unit && Math.abs(e.value - c.value) <= Math.abs(c.value) * 0.02));
  if (claim.claim_type === 'promise' && ownFigures && sharedNouns.length >= Math.min(2, nouns.size) && DESPITE_PROMISE.test(sentence)) {
    out.splice(0, out.length, ...out.filter((r) => r.signal !== 'support'));
    say('against', 'reports what happened despite the promise');
  }
  // A change the other way, of the same thing: the direction word must sit by a noun the two share.
  const dc = claimNegative ? -direction(claim.quote) : direction(claim.quote);
  const ds = directionOf(sentence, sharedNouns);
  if (dc !== 0 && ds !== 0) {
    if (dc !== ds) say('against', `reports a ${ds > 0 ? 'rise' : 'fall'} where the claim has ${claimNegative ? 'none' : `a ${dc > 0 ? 'rise' : 'fall'}`}`);
    // (One change the claim's way does not confirm that none went the other way "in any quarter".)
    else if (claimed.length === 0 && claimNegative && sharedNouns.length === nouns.size && !EVERY_PERIOD.test(claim.quote) && !ANY_PERIOD.test(claim.quote) && !out.some((r) => r.signal === 'against')) say('support', `reports a ${ds > 0 ? 'rise' : 'fall'}, as the claim says`);
  }
  return out;
}

// "not a single finding", "no compulsory redundancies", "not one … had closed", "never had a …".
const NONE_EXISTS = /\b(?:(?:not|never)\s+(?:(?:had|seen|recorded|made|received|suffered|faced)\s+)?(?:a\s+single|one|any)|no(?!\s+(?:more|less|fewer|higher|lower|later|earlier)\b)|never\s+(?:had|seen|recorded|made|received|suffered|faced)\s+(?:a|an))\s+((?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:of|in|on|at|from|since|during|this|last|for|against|to|by|had|has|have|was|were)\b|[,.;]|$)/i;

/** The noun a claim says rose or fell ("Complaints from passengers fell", "Bus cancellations did not rise"), and which way. */
function movedNoun(quote: string): { noun: string; dir: 1 | -1 } | null {
  const terms = termsOf(quote);
  for (let i = 0; i < terms.length; i++) {
    const d = direction(terms[i]!.normal);
    if (d === 0 || !terms[i]!.tags.includes('Verb')) continue;
    for (let j = i - 1; j >= 0 && j >= i - 6; j--) {
      const t = terms[j]!;
      if (t.tags.includes('Noun') && !t.tags.some((g) => g === 'Pronoun' || g === 'ProperNoun' || g === 'Value')) {
        // The head of "complaints from passengers" is the first noun of its phrase.
        let k = j;
        while (k - 1 >= 0 && (terms[k - 1]!.tags.includes('Noun') || terms[k - 1]!.tags.includes('Preposition')) && !terms[k - 1]!.tags.includes('Pronoun')) k--;
        const head = terms.slice(k, j + 1).find((x) => x.tags.includes('Noun'));
        return { noun: stem((head ?? t).normal.replace(/[^\p{L}'-]/gu, '')), dir: d };
      }
    }
  }
  return null;
}

// Bounds are not denials: "no more than 3%" limits a figure.
const BOUNDS = /\b(no|not)\s+(more|less|fewer|higher|lower|greater)\s+than\b|\bno\s+(later|earlier|sooner)\s+than\b/gi;
// "did not rise", "not one … had closed", "never": the claim denies its deed ("households left without water" does not).
const NEGATED_PREDICATE = /\b(?:not|never|no longer|none of|not one|no one|nobody)\b|n['’]t\b/i;
// "did not rise", "not one … had closed", "no … since", "never": the claim denies something.
const NEGATIVE_CLAIM = /\b(not|never|no|none|nobody|neither|nor|without)\b|n['’]t\b/i;

const SPEAKERS_BODY = new RegExp(`(?:^|\\b(?:said|says|added|stated|confirmed|insisted|promised|explained|announced)\\s+(?:that\\s+)?)(?:the|its|our)\\s+(${BODY_NOUNS})\\b`, 'i');

/** The claim's nouns (stems), less names and framing words: what a sentence must share to speak to it. */
function claimNouns(quote: string, ct: ClaimTerms): Set<string> {
  const out = new Set<string>();
  // What the claim is about is in its main clause; a trailing gloss (", giving families a place to learn") is not.
  const tail = TAIL.exec(quote);
  // The speaker's own body named as the doer ("she said the service would open a new station") is who, not what.
  const doer = SPEAKERS_BODY.exec(quote)?.[1];
  for (const t of termsOf(tail ? quote.slice(0, tail.index) : quote)) {
    if (doer && t.normal === doer.toLowerCase()) continue;
    // Part of a compound modifier ("a full-time station", "long-term plan") names no thing of its own.
    const bare = t.text.replace(/[^\p{L}]/gu, '');
    if (bare && new RegExp(`[\\p{L}]-${bare}\\b|\\b${bare}-[\\p{L}]`, 'iu').test(quote)) continue;
    if (!t.tags.includes('Noun') || t.tags.some((g) => g === 'Pronoun' || g === 'ProperNoun' || g === 'Value' || g === 'Date')) continue;
    const w = t.normal.replace(/[^\p{L}'-]/gu, '');
    if (!isContent(w)) continue;
    const st = stem(w);
    if (ct.names.has(st) || !ct.terms.has(st)) continue;
    out.add(st);
  }
  // A facility the claim is about is what it is about, though it has a name ("the new Riverside Stand will open").
  for (const n of namesIn(quote)) if (isFacilityName(n.text)) for (const w of words(n.text)) if (isContent(w) && !ct.names.has(stem(w))) out.add(stem(w));
  return out;
}

/**
 * The direction a sentence reports for one of the given nouns: a rise or fall word up to four words before it
 * or six after ("phosphate in the lower Merrow rose 6%"). A direction word that qualifies a name ("the lower
 * Merrow", "Upper Fenwick") names a place, and says nothing of a change.
 */
function directionOf(sentence: string, nouns: readonly string[]): 1 | -1 | 0 {
  const raw = sentence.match(/[\p{L}\p{N}]+(?:['’.,][\p{L}\p{N}]+)*/gu) ?? [];
  let dir: 1 | -1 | 0 = 0;
  raw.forEach((w, i) => {
    if (!nouns.includes(stem(w.toLowerCase()))) return;
    const near = raw.slice(Math.max(0, i - 4), i + 7).filter((x, k, all) => !(direction(x) !== 0 && /^\p{Lu}/u.test(all[k + 1] ?? '')));
    const d = direction(near.join(' '));
    if (d !== 0) dir = d;
  });
  return dir;
}

/** The wording judge. */
export function wordingJudge(input: JudgeInput): Finding {
  // A claim about a place in a ranking is the ranks judge's to read: "won" in a sentence about another prize says nothing of it.
  if (rankCondition(input.claim.quote)) return { outcome: 'unresolvable', reason: 'A claim about a place is read by the ranks judge.', basis: [], applies: false };
  const ct = claimTerms(input.claim);
  const reads = input.items.flatMap((item) => item.sentences.flatMap((s) => readSentence(input, ct, item, s)));
  const has = (s: Signal) => reads.some((r) => r.signal === s);
  let outcome: Outcome = 'unresolvable';
  if (has('support') && (has('against') || has('partial'))) outcome = 'mixed';
  else if (has('support')) outcome = reads.some((r) => r.signal === 'support' && MOSTLY.test(r.sentence)) ? 'mostly_true' : 'true';
  else if (has('partial')) outcome = has('against') ? 'mostly_false' : 'mixed';
  else if (has('against')) outcome = 'false';
  if (outcome === 'unresolvable') {
    return { outcome, reason: 'No independent passage confirms or contradicts the claim in words.', basis: [] };
  }
  const seen = new Set<string>();
  const shown = reads.filter((r) => !seen.has(r.item.url + r.why) && seen.add(r.item.url + r.why));
  const reason = shown.map((r) => `${r.item.publisher} (${r.item.published ?? 'undated'}) ${r.why}`).join('; ');
  return { outcome, reason: `${reason}, so ${outcome}.`, basis: shown.map((r) => ({ item: r.item, sentence: r.sentence })), signals: shown.map((r) => r.signal) };
}
