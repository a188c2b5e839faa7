import nlp from 'compromise';
import { parse, parsePlain } from './parse.ts';
import type { ClaimType, Classification, Topic } from './types.ts';
import { findDeadline } from './deadline.ts';
import { isActorName, namesIn } from './grounding.ts';
import { topicOf } from './topics.ts';
import { LEVEL_VERBS, BODY_WORDS, SELF_REFERENCE, KEPT_OR_NOT, PERSON_NOUNS, THING_NOUN, THING_WORD, WIDE, CONTEST, PASSIVE_DEED } from './classify-cues.ts';

export { topicOf } from './topics.ts';

// Stage "classify": what kind of claim a sentence is, its broad topic, and when
// a promise or prediction falls due. Everything is read from compromise's tags
// and match syntax, so "we'll", "won't" and "pledged" are seen for what they are.

// (When a claim falls due is read in deadline.ts, which also registers compromise-dates; its topic in topics.ts.)

type View = ReturnType<typeof nlp>;
type TermJson = { text: string; normal: string; root?: string; tags: string[] };

export interface ClassifyContext {
  /** When it was said (YYYY-MM-DD). Relative deadlines count from it; without it, from today. */
  said_on?: string;
  /** The speaker's own names: in its own words "Brightwater will…" is a first-person commitment. */
  self_names?: string[];
  /** The claim comes from the subject's own document (its site or its publication), where its narrator is the subject. */
  own_document?: boolean;
  /** The period the claim's document is about (periods.ts, documentPeriod): the due date of a claim that names none. */
  doc_period?: string | null;
  /**
   * The speaker is a body (an organisation or outlet), or a person who speaks for one (their
   * description names the organisation they lead or work for): its "will" about its own
   * services is a promise, and its expectations for its own figures are guidance.
   */
  speaks_for_body?: boolean;
}

/** Signals in a sentence; extract uses them to keep checkable sentences, classify to type them. */
export interface Cues {
  question: boolean;
  greeting: boolean;
  opinion: boolean;
  vague: boolean;
  /** A possibility, not a claim: "we might look at", "it could open early", "may extend" (not the month). */
  hedge: boolean;
  guidance: boolean;
  commitment: boolean;
  forecast: boolean;
}

// Verbs of change: "prices should fall" is a forecast, not advice.
const CHANGE_VERBS = new Set(['rise', 'fall', 'increase', 'decrease', 'grow', 'drop', 'reach', 'exceed', 'double', 'halve', 'improve', 'decline', 'remain', 'stay', 'recover', 'peak', 'ease', 'climb', 'slow', 'be']);
// "We will see prices fall" forecasts the world; it does not commit the speaker.
const PERCEPTION_VERBS = new Set(['see', 'know', 'learn', 'find', 'hear', 'expect', 'watch', 'notice']);
const ADDRESSEES_SELF = new Set(['we', 'i', 'us']);

// compromise match patterns. Lists are tried one by one: compromise does not nest alternations.
const M = {
  advice: ['(advise|advises|advised|recommend|recommends|recommended|urge|urges|urged|encourage|encourages|encouraged)'],
  advisedTo: ['(is|are|were) #Adverb? (advised|recommended|urged|encouraged|asked|told) to'],
  bestTo: ['it is #Adverb? (best|important|advisable|safest|safer|wise|essential|vital|sensible) to'],
  imperative: ['^please? (#Imperative|#Infinitive)', '^please? (do|did) not #Verb', '^please? never #Verb'],
  // compromise's own Imperative tag misfires on "House prices will…": an order has no other finite verb.
  notImperative: ['(#Modal|#Copula|#PastTense)', '^please? . #Noun+ #PresentTense'],
  modal: '. #Adverb? (should|must|ought|need|needs) to? not? #Adverb? #Verb',
  pledge: ['(we|i|our|my) #Adverb? (can|will|do|would)? #Adverb? (pledge|pledged|promise|promised|vow|vowed|commit|committed|guarantee|guaranteed|undertake|undertook) (to|that|you|customers|passengers|supporters|readers|patients|tenants|residents|everyone|people)?', '(we|i) (are|am|remain|were|was) #Adverb? (committed|determined) to', '(our|my) #Adjective? (pledge|promise|commitment|target|goal|aim|plan) (is|was)? to'],
  firstFuture: '(we|i) #Adverb? (will|shall) not? #Adverb? #Verb',
  firstPlan: ['(we|i) (are|am|remain) #Adverb? (going|on track|set|planning|due) to', '(we|i) #Adverb? (aim|plan|intend) to'],
  forecastVerb: ['(expect|expects|expected|forecast|forecasts|predict|predicts|predicted|anticipate|anticipates|anticipated|foresee|foresees|projected|fancy|reckon|reckons|tip|tips|backing)'],
  likely: ['(likely|unlikely|probably|poised|bound|set|on course|on track|due) to'],
  // "will" may be followed by a word compromise-dates re-tags ("will fall" as autumn), so accept any term.
  future: ['(will|shall) #Adverb? not? #Adverb? .'],
  // Hedged forecasts; matched on the Modal tag and checked in code, because "May 2025" is not "may".
  hedged: '#Modal #Adverb? not? .',
  greeting: ['^(hello|hi|welcome|thanks|thank|good morning|good afternoon|good evening|goodbye|congratulations)', '^have a (wonderful|great|safe|lovely|good|nice|happy) .', '^(enjoy your|safe travels|bon voyage)'],
  opinion: ['(i|we) #Adverb? (think|believe|feel|hope|wish|love|like|hate|reckon|suspect|doubt)', 'in my (view|opinion)', 'it is (great|wonderful|terrible|a shame|disgraceful|amazing)', '(i|we) (am|are|was|were|remain) #Adverb? (confident|proud|delighted|disappointed|sure|certain|convinced|optimistic|pessimistic|worried|concerned)', '^(frankly|honestly|personally|clearly|obviously)', '(deserve|deserves) (the|a|better)'],
  vague: ['(strive|striving|try|trying|best|excellence|world-class|proud|delighted|pleased|happy|thrilled|excited|passionate|hope|hopefully)'],
};

// "My expectation is that the cap comes down this winter": a forecast said as a noun.
const EXPECTATION = /\b(?:my|our|the\s+\w+'s)\s+(?:central\s+)?(?:expectation|forecast|prediction|bet|guess|hunch)\s+is\s+that\b/i;
const REPORTED_FUTURE = /\b(?:said|added|told\s+\w+|insisted|argued|claimed|predicted|warned|promised|went on to say)\s+(?:that\s+)?[^.;]*\bwould\b/i;
/** A sentence without the conjunction it opens with ("And put a smoke alarm in the kitchen"). */
const withoutOpener = (text: string) => text.replace(/^\s*(?:and|so|but|also|then|plus)\s*,?\s+/i, '');
// "Wiping mould off with bleach is the best way to get rid of it": advice in the words of a fact.
/** "Is the best way to …", "the best way to cool off is …": advice, though it has no imperative. */
export const BEST_WAY = /\bis (?:the|by far the) (?:best|safest|only|right|quickest|simplest|most effective) way to\b|\bthe (?:best|safest|only|quickest|simplest|most effective) way to [^.;]{1,60}? is\b/i;
const hasAny = (doc: View, patterns: readonly string[]): boolean => patterns.some((p) => doc.has(p));
// A judgement rather than a fact: "too many", "too high for too long", "the worst I've seen", "believes"
// (of a body's view), "a season to remember", "in good shape", comparatives of mood ("gloomier").
const OPINION = /\btoo\s+(?:many|much|few|little|high|low|long|short|slow|fast|late|early|expensive|cheap|big|small)\b|\bthe\s+(?:worst|best)\s+(?:i|we)\s*(?:'ve|have)\s+(?:ever\s+)?seen\b|\b(?:believes|thinks|feels)\s+(?:that\s+)?(?:the|a|an|its|their|our|this)\b|\bto remember\b|\bin (?:good|great|fine|rude|decent) (?:shape|health|heart)\b|\b(?:i'?m|i am|we'?re|we are)\s+(?:\w+\s+)?(?:gloomier|cheerier|happier|sadder|more (?:optimistic|pessimistic|hopeful|worried|confident))\b|\bwould have been (?:a|an) (?:fantasy|dream|miracle|joke)\b/i;
// An aim with nothing to measure: "we want every reader to feel…", "we will continue to bring…", "we will keep working to earn…".
// (Also a commitment to a state with nothing to measure, "We remain committed to being a good neighbour", "We aim
// to keep improving every part of the journey", and a line that only introduces what follows, "Here is what you need to know".)
const VAGUE_STATE = /^(?:we|i)\s+(?:remain|are|am)\s+(?:\w+\s+)?(?:committed|determined|dedicated)\s+to\s+(?:being|becoming|remaining|leading)\b(?![^.]*\d)|^(?:we|i)\s+(?:aim|want|hope|strive|try)\s+to\s+(?:keep\s+)?(?:improving|improve|get\s+better|be\s+the\s+best)\b(?![^.]*\d)|^here(?:'s|’s|\s+is|\s+are)\s+(?:what|how|everything)\b|^this\s+(?:plan|report|document|statement|update|review|page|strategy)\s+(?:sets\s+out|describes|explains|summari[sz]es|outlines|covers)\b|^[^.]{0,80}?\btoday\s+(?:publishe[sd]|reports?|releases?|announces?)\s+(?:its|their|his|her|the)\s+(?:[\p{L}-]+\s+){0,4}?(?:report|results|accounts|figures|deliveries|statement|update|review|plan|strategy|outlook)\b/iu;
// "2025 was a year of real progress", "2024 was a landmark year": a verdict on a year, with no figure in it.
const YEAR_VERDICT = /^["“‘']?(?:19|20)\d\d(?:\/\d\d)?\s+(?:was|has\s+been|will\s+be|is)\s+(?:a|an)\s+(?:[\p{L}-]+\s+){0,3}year\b(?![^.]*\d)/iu;
const VAGUE = /^(?:our|my)\s+(?:ambition|aim|vision|goal|hope|mission|dream)\s+is\b|^(?:we|i)\s+(?:want|would like|wish)\s+(?:every|all|each|our|the|people|you|everyone|readers|customers|fans|residents)\b[^.]{0,80}\b(?:to\s+)?(?:feel|be|see|know|enjoy|trust|believe)\b|^(?:we|i)\s+will\s+(?:continue|keep(?:\s+on)?|carry on)\s+(?:to\s+|working\s+to\s+|striving\s+to\s+)?(?:bring|work|earn|strive|try|serve|support|champion|listen|improve|do|build|deliver|push|fight)\b/i;
const HEDGES = new Set(['may', 'might', 'could', 'should']);

/** Replace the speaker's own names by first-person words, so self-reference reads as "we". */
export function asFirstPerson(sentence: string, selfNames: readonly string[] = []): string {
  const names = [...selfNames].filter((n) => n.trim().length > 1).sort((a, b) => b.length - a.length);
  let out = sentence;
  for (const name of names) {
    const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])(?:the\\s+)?${escaped}(['’]s)?(?![\\p{L}\\p{N}])`, 'giu'), (_m, poss?: string) => (poss ? 'our' : 'we'));
  }
  return out;
}

function termsOf(view: View): TermJson[] {
  return (view.json() as Array<{ terms: TermJson[] }>).flatMap((m) => m.terms);
}

/** Advice given to others: "people should…", "we recommend…", "boil water before…". */
function isGuidance(doc: View): boolean {
  if (hasAny(doc, [...M.advice, ...M.advisedTo, ...M.bestTo])) return true;
  // (A verb the tagger reads as imperative opens the sentence: "Test your smoke alarms" is not "Prices rise".)
  const opensImperative = doc.has('^please? #Imperative');
  // "Let me start with money", "Let's be clear": the speaker's own turn of phrase, not advice.
  if (doc.has('^let (me|us|\'s)') || /^\s*let(?:'s|’s|\s+(?:me|us))\b/i.test(doc.text())) return false;
  // (After an opening imperative, a participle is its complement — "Keep your curtains closed" — so only a modal or a copula
  // says the opening word was not an order; a past tense right after it does — "Profits rose".)
  if (hasAny(doc, M.imperative) && !hasAny(doc, opensImperative ? ['(#Modal|#Copula)'] : M.notImperative) && !(opensImperative && reportsPast(doc))) return true;
  for (const match of doc.match(M.modal).json() as Array<{ terms: TermJson[] }>) {
    const who = match.terms[0]?.normal ?? '';
    const verb = match.terms.at(-1);
    const lemma = verb?.root ?? verb?.normal ?? '';
    if (!ADDRESSEES_SELF.has(who) && !CHANGE_VERBS.has(lemma)) return true;
  }
  return false;
}

/**
 * "Staff turnover in our stores fell", "Profits rose": the opening word is a noun the tagger took for an
 * order, when a bare noun follows it (no pronoun, possessive or article, as in "Keep your curtains closed")
 * and a past tense comes later in the same clause.
 */
function reportsPast(doc: View): boolean {
  const terms = (doc.json() as Array<{ terms: Array<TermJson & { post?: string }> }>).flatMap((x) => x.terms).filter((t) => t.normal !== 'please');
  const second = terms[1];
  if (!second || !second.tags.includes('Noun') || second.tags.some((g) => g === 'Pronoun' || g === 'Possessive' || g === 'Determiner')) return false;
  for (const t of terms.slice(1)) {
    if (t.tags.includes('PastTense')) return true;
    if (/[,;:]/.test(t.post ?? '')) return false;
  }
  return false;
}

function hedged(doc: View): boolean {
  return termsOfMatches(doc.match(M.hedged)).some((terms) => HEDGES.has(terms[0]?.normal ?? '') && !terms[0]?.tags.includes('Month'));
}

function firstPersonFuture(doc: View): boolean {
  if (hasAny(doc, M.firstPlan)) return true;
  return termsOfMatches(doc.match(M.firstFuture)).some((terms) => {
    const verb = terms.at(-1);
    return !PERCEPTION_VERBS.has(verb?.root ?? verb?.normal ?? '');
  });
}

function termsOfMatches(view: { json(): unknown }): TermJson[][] {
  return (view.json() as Array<{ terms: TermJson[] }>).map((m) => m.terms);
}

export function readCues(sentence: string, selfNames: readonly string[] = []): Cues {
  const doc = parse(asFirstPerson(sentence, selfNames));
  doc.compute('root');
  const plain = parsePlain(asFirstPerson(sentence, selfNames));
  const either = (patterns: readonly string[]) => hasAny(doc, patterns) || hasAny(plain, patterns);
  return {
    question: sentence.trim().endsWith('?'),
    greeting: either(M.greeting),
    opinion: either(M.opinion) || OPINION.test(sentence),
    vague: either(M.vague) || VAGUE.test(sentence.trim()) || VAGUE_STATE.test(sentence.trim()) || YEAR_VERDICT.test(sentence.trim()),
    hedge: hedged(doc) && !/\bshould\b/i.test(sentence) && /\b(might|may|could)\b/i.test(sentence) && !/\b(could not|couldn't|may not|might not)\b/i.test(sentence),
    guidance: isGuidance(doc) || isGuidance(parsePlain(withoutOpener(asFirstPerson(sentence, selfNames)))) || BEST_WAY.test(sentence),
    commitment: hasAny(doc, M.pledge) || firstPersonFuture(doc),
    forecast: hasAny(doc, [...M.forecastVerb, ...M.likely, ...M.future]) || hedged(doc),
  };
}


/** The verb after "will"/"would"/"shall", and whether the future is spoken by the subject about itself. */
function futureVerb(doc: View): string | null {
  for (const terms of termsOfMatches(doc.match('(will|shall|would|wo) #Adverb? not? #Adverb? (be|have)? #Adverb? .'))) {
    const verb = terms.slice(1).find((t) => !t.tags.some((g) => g === 'Adverb' || g === 'Negative') && t.normal !== 'not');
    if (verb) return verb.root ?? verb.normal;
  }
  return null;
}

function isForecastVerb(doc: View): boolean {
  // "forecast" and "projected" as verbs, not nouns ("the hub has published a forecast every week").
  return termsOfMatches(doc.match(M.forecastVerb[0]!)).some((terms) => {
    const t = terms[0];
    return !!t && (t.tags.includes('Verb') || !['forecast', 'forecasts', 'projected'].includes(t.normal));
  });
}

function typeOf(doc: View, sentence: string, context: ClassifyContext): ClaimType {
  if (isGuidance(doc) || isGuidance(parsePlain(withoutOpener(asFirstPerson(sentence, context.self_names)))) || BEST_WAY.test(sentence)) return 'guidance';
  // "We kept our promise of…": a report of a promise kept or broken is a statement of fact.
  const pastPromise = /\b(kept|keep|broke|broken|met|meet|fulfilled|honoured|honored|delivered on|made good on)\s+(?:on\s+)?(?:our|my|its|their|the|this|that|every)\s+(?:\w+\s+)?(promise|pledge|commitment|undertaking)/i.test(sentence);
  // "all 150 of our promised warm hubs opened": a promise named as done is a statement of fact.
  // (Unless it promises again: "will keep two flights a day, as we promised the assembly".)
  const promisedDone = /\b(?:our|its|their|the)\s+promised\b/i.test(sentence) || (KEPT_OR_NOT.test(sentence) && !/\b(?:will|shall)\b|['’]ll\b/i.test(sentence));
  // "We are guiding to an operating margin of 2.5 to 3 per cent", "for 2026 we are targeting a combined ratio of 93% to
  // 95%": an outlook said as one, not a pledge.
  if (context.speaks_for_body && /\bguid(?:e|es|ing)\s+(?:to|towards)\b|\b(?:are|is|am)\s+targeting\s+(?:an?\s+)?(?:[\p{L}-]+\s+){0,3}?(?:ratio|margin|rate|return|growth|revenue|sales|profit|income|range)\b/iu.test(sentence)) return 'guidance';
  if (hasAny(doc, M.pledge) && !pastPromise && !promisedDone) return 'promise';
  const body = context.speaks_for_body === true;
  // An outlook for a figure another body owns ("I expect the council's waiting list to pass 9,000") is a
  // forecast of someone else's figure, whoever gives it.
  const ownWords = new Set((context.self_names ?? []).flatMap((n) => n.toLowerCase().split(/\s+/)));
  const othersFigure = [...sentence.matchAll(/\b(?:the\s+([a-z]+)|((?:\p{Lu}[\p{L}-]+\s+){0,3}\p{Lu}[\p{L}-]+))['’]s\b/gu)]
    .some((m) => (m[1] ? !ownWords.has(m[1].toLowerCase()) && new RegExp(`^(?:${BODY_WORDS})$`, 'i').test(m[1]) : !m[2]!.toLowerCase().split(/\s+/).some((w) => ownWords.has(w))));
  const self = SELF_REFERENCE.test(asFirstPerson(sentence, context.self_names)) && !othersFigure;
  const predictWord = /\b(predict|predicts|predicted|prediction|tip|tipping|bet)\b/i.test(sentence);
  // An expectation: a body's for its own figures is guidance (the outlook a company or public body
  // publishes, judged against the actual); anyone's for the world is a prediction.
  const onTrack = /\b(on track|on course|set|due|poised|going)\s+to\s+(\w+)/i.exec(sentence);
  if (onTrack && !isForecastVerb(doc) && body && self && !LEVEL_VERBS.has(parse(onTrack[2]!).compute('root').json()[0]?.terms?.[0]?.root ?? onTrack[2]!.toLowerCase())) return 'promise';
  if (isForecastVerb(doc) || hasAny(doc, M.likely) || EXPECTATION.test(sentence)) {
    // An outlook for the economy, a market or an industry as a whole is a forecast of the world, not of the body's own figures.
    const wide = WIDE.test(sentence);
    // A forecast a person makes in their own name ("I expect", "I'd expect", "my expectation is") is their call, not
    // the outlook the body publishes in its name ("we expect", "the board expects", "is expected").
    const ownCall = /\bI(?:['’]d|\s+would)?\s+(?:still\s+|also\s+|now\s+|fully\s+|firmly\s+|confidently\s+)?(?:expect|predict|forecast|reckon|anticipate)\b|\bmy\s+(?:central\s+)?(?:expectation|forecast|prediction|bet|guess|hunch)\b/.test(sentence);
    if (ownCall) return 'prediction';
    if (body && self && !predictWord && !wide) return 'guidance';
    // "Underlying operating margin for the full year is now expected to be between 15% and 16%", "turnover of £8.5m to
    // £9m is expected in 2026": an outlook the body gives in the passive, in its own document or quoted in anyone's.
    if (body && /\b(is|are|was|were)\s+(?:now\s+|still\s+)?(expected|forecast|projected|anticipated)\b/i.test(sentence) && !predictWord && !wide) return 'guidance';
    return 'prediction';
  }
  // "I'd bet beer sales fall again", "I'd tip Harrowby to go down": a wager is a forecast, not a promise.
  // ("I'd put money on DAB overtaking FM", "I'll stick my neck out:", "I'll make a prediction now:", "I'm certain of
  // that": a forecast said as a wager or a conviction.)
  if (/\b(?:i|we)(?:['’]d|\s+would)?\s+(?:bet|tip|wager)\b|\bput\s+(?:my\s+|good\s+|some\s+)?money\s+on\b|\bstick\s+my\s+neck\s+out\b|\bmake\s+a\s+prediction\b|\bgo\s+out\s+on\s+a\s+limb\b|\b(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:certain|confident|sure)\s+(?:that|of\s+(?:it|that))\b/i.test(sentence)) return 'prediction';
  if (CONTEST.test(sentence) && !hasAny(doc, M.pledge)) return 'prediction';
  if (firstPersonFuture(doc)) return 'promise';
  if (hasAny(doc, M.future) || /\bwould\b/i.test(sentence)) {
    const verb = futureVerb(doc);
    // "The Health Board will open a centre", in an outlet's article: someone else's deed, forecast.
    // (Who does the deed is read from the reported clause: "Ms Tallis said the Lyon route would start in October" is
    // not Ms Tallis's deed; and a name followed by the kind of thing it names, "the Lyon route", "the Ashby clinic",
    // or ending in it, "Fenwright Hall", is a thing the body runs, not another body.)
    const before = (sentence.split(/\b(?:will|shall|would|won't|wouldn't)\b/i)[0] ?? '').replace(/^.*\b(?:said|says|told\s+[\p{L}\s]{1,40}?|added|confirmed|explained|insisted)\s+(?:that\s+)?/iu, '');
    const self = { names: (context.self_names ?? []).map((n) => n.toLowerCase().replace(/^the\s+/, '').split(/\s+/)), surnames: [], impersonal: false };
    // (Or a name put before a common noun that is not a body's, "the Carrick Moor gigafactory": the noun says what it is.)
    const headNoun = (after: string) => {
      const w = /^\s+([a-z][a-z-]{2,})\b/.exec(after)?.[1];
      return !!w && !new RegExp(`^(?:${BODY_WORDS}|${PERSON_NOUNS})s?$`).test(w) && nlp(w).has('#Noun') && !nlp(w).has('(#Verb|#Adverb|#Preposition|#Conjunction)');
    };
    const thing = (n: { text: string; end: number }) => THING_WORD.test(` ${n.text}`) || new RegExp(`^\\s+${THING_NOUN.source}`, 'i').test(before.slice(n.end)) || headNoun(before.slice(n.end));
    const someoneElse = namesIn(before).some((n) => !n.place && !(n.initial && !n.text.includes(' ')) && !isActorName(n.text, self) && !thing(n));
    // "He added that Sallowford would not lose a home game": "would" in reported speech is the speaker's "will".
    if (someoneElse) return hasAny(doc, M.future) || REPORTED_FUTURE.test(sentence) ? 'prediction' : 'factual';
    // "will be in place", "will be ready by March": a state the body brings about, a deed like "will open".
    const done = verb === 'be' && /\b(?:will|shall)\s+(?:all\s+)?be\s+(?:fully\s+)?(?:in place|ready|open|opened|complete|completed|finished|built|installed|fitted|available|operational|live|in service|in passenger service|delivered|launched|step-free|accessible)\b/i.test(sentence);
    // "The old terminal will be demolished by March", "fares will be frozen until April": a deed in the passive,
    // done by whoever says it will be.
    const deed = verb === 'be' && PASSIVE_DEED.test(sentence);
    // (What the economy, a market or a contest will do is a forecast, whoever says it: "inflation will be under 3% by
    // April", "turnout will be above 70 percent", "we will be promoted this season".)
    // (Words of a name are not the economy's: "the Harnby National Velodrome".)
    if (WIDE.test(before.replace(/(?<=\s)\p{Lu}[\p{L}-]*/gu, '')) || CONTEST.test(sentence)) return 'prediction';
    if (body && verb && (!LEVEL_VERBS.has(verb) || done || deed)) return 'promise';
    if (body && self && verb && LEVEL_VERBS.has(verb) && /\b(our|its)\b/i.test(asFirstPerson(sentence, context.self_names))) return 'guidance';
    if (hasAny(doc, M.future)) return 'prediction';
  }
  if (hedged(doc)) return 'prediction';
  // The present for the future ("The paywall goes live on the first of April"): a date after it was said makes it a commitment or forecast.
  // (Only a time named as one, a date, a month, a season: "within 28 days of receiving it", "after three years" are
  // spans, and a verb in the past, "we issued 60 warnings over the three days", reports what was done.)
  const named = doc.has('(#Month|#WeekDay)') || /\b(?:19|20)\d\d\b|\b(?:spring|summer|autumn|winter|christmas|easter|quarter|season)\b/i.test(sentence);
  const reported = sentence.replace(/^.*?\b(?:said|says|told\s+[\p{L}\s]{1,40}?|added|confirmed|explained|insisted)\s+(?:that\s+)?/iu, '');
  const pastDeed = !/\bwould\b/i.test(reported) && parse(reported).has('#PastTense');
  if (!pastPromise && context.said_on && named && !pastDeed && !/\b(?:since|ago|last|was|were|had|did|has|have|now)(?:n['’]t)?\b/i.test(sentence) && (findDeadline(sentence, context.said_on) ?? '') > context.said_on && doc.has('#PresentTense')) {
    return context.speaks_for_body ? 'promise' : 'prediction';
  }
  return 'factual';
}

/** Guidance that is an outlook for a figure (judged against the actual at its date), not advice. */
export function isOutlook(sentence: string): boolean {
  return /\b(expect|expects|expected|forecast|forecasts|anticipate|anticipates|project|projects|projected|guidance|outlook|will|would|likely|on track|on course|guiding|targeting)\b/i.test(sentence);
}

/** The classify stage: claim type, topic, and deadline (promises, predictions and outlooks). */
export function classifyClaim(sentence: string, context: ClassifyContext = {}): Classification {
  const doc = parse(asFirstPerson(sentence, context.self_names));
  doc.compute('root');
  const claim_type = typeOf(doc, sentence, context);
  const dated = claim_type === 'promise' || claim_type === 'prediction' || (claim_type === 'guidance' && isOutlook(sentence));
  const deadline = dated ? (findDeadline(sentence, context.said_on) ?? context.doc_period ?? null) : null;
  return { claim_type, topic: topicOf(sentence), deadline };
}
