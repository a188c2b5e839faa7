import nlp from 'compromise';
import { parse } from './parse.ts';
import { BEST_WAY, readCues } from './classify.ts';
import { isOwnPublication } from './rules.ts';
import { readQuantities } from './quantities.ts';
import type { ExtractedClaim, Figure, SourceDocument, SubjectRef } from './types.ts';
import { attribute, QUOTE_MARKS, sentencesIn, subjectMatcher, tokens } from './attribution.ts';
import { officersOf, withOfficers } from './officers.ts';
import { referents } from './grounding.ts';

export { subjectMatcher };

// Stage "extract": the checkable sentences a subject speaks in one document,
// each quoted exactly as it stands in the text. Whose words each stretch of the
// document holds is attribution.ts; this module decides which of the subject's
// sentences are checkable claims, and reads their names, words and figures.

type View = ReturnType<typeof nlp>;
type TermJson = { text: string; normal: string; root?: string; tags: string[]; pre?: string; post?: string };

const STOPWORDS = new Set(['we', 'i', 'you', 'it', 'they', 'he', 'she', 'our', 'us', 'be', 'have', 'do', 'will', 'year', 'per', 'cent', 'percent']);

/** Trim quotation marks and trailing commas so the quote is the speaker's words, still verbatim. */
function trimQuote(text: string, start: number, end: number): [number, number] {
  const strip = (c: string | undefined) => c !== undefined && (QUOTE_MARKS.includes(c) || /\s/.test(c));
  while (start < end && strip(text[start])) start++;
  while (end > start && (strip(text[end - 1]) || ',;:'.includes(text[end - 1] ?? ''))) end--;
  return [start, end];
}

function figuresIn(doc: View): Figure[] {
  const dayOfMonth = new Set([...(doc.match('[#Value] #Month', 0).out('array') as string[]), ...(doc.match('#Month [#Value]', 0).out('array') as string[])]);
  const out: Figure[] = [];
  for (const n of doc.numbers().json() as Array<{ text: string; number?: { num?: number } }>) {
    const text = n.text.trim().replace(/[.,;:!?)]+$/, '');
    const value = typeof n.number?.num === 'number' && Number.isFinite(n.number.num) ? n.number.num : null;
    const isYear = /^(19|20)\d\d$/.test(text);
    if (isYear || dayOfMonth.has(n.text) || out.some((f) => f.text === text)) continue;
    if (/%|per ?cent/i.test(text)) out.push({ text, value, unit: 'percent' });
    else if (/[£$€]|pounds|dollars|euros/i.test(text)) out.push({ text, value, unit: 'money' });
    // "a fifth", "half": a share, stated as a percentage so the judge can compare it.
    else if (value !== null && value > 0 && value < 1 && !/\d/.test(text)) out.push({ text, value: Math.round(value * 1000) / 10, unit: 'percent' });
    else out.push({ text, value, unit: 'count' });
  }
  return out;
}

function entitiesIn(doc: View): string[] {
  const found = [...(doc.topics().out('array') as string[]), ...(doc.match('#ProperNoun+').out('array') as string[])];
  const clean = found.map((e) => e.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/, '')).filter((e) => e.length > 1 && !/^(19|20)\d\d$/.test(e));
  return [...new Set(clean)].filter((e, _i, all) => !all.some((o) => o !== e && o.includes(e)));
}

function keywordsIn(doc: View): string[] {
  doc.compute('root');
  const terms = (doc.match('(#Noun|#Verb|#Adjective)').not('(#Pronoun|#Auxiliary|#Modal|#Copula|#Value|#Date)').json() as Array<{ terms: TermJson[] }>).flatMap((m) => m.terms);
  const words = terms.map((t) => (t.root ?? t.normal).replace(/[^\p{L}\p{N}-]/gu, '')).filter((w) => w.length > 2 && !STOPWORDS.has(w));
  return [...new Set(words)].slice(0, 12);
}

/** A quote's names, content words and figures: what evidence search and the figures judge read (for quotes a model extracted). */
export function quoteFeatures(quote: string): { entities: string[]; keywords: string[]; figures: Figure[] } {
  const view = parse(quote);
  return { entities: entitiesIn(view), keywords: keywordsIn(view), figures: figuresIn(view) };
}

/**
 * Checkable: it holds a specific number, date or named entity (other than the
 * speaker), or commits, forecasts or advises. Questions, greetings and opinions
 * or vague aims without a number or date are dropped.
 */
function isCheckable(sentence: string, doc: View, selfNames: readonly string[], figures: Figure[], entities: string[], quoted = false): boolean {
  // A heading ("Investor call, 8 November 2023") has no verb; compromise can miss a verb
  // ("revenue rose 12%"), so a figure is enough.
  if (tokens(sentence).length < 4 || (!doc.has('#Verb') && figures.length === 0)) return false;
  const cues = readCues(sentence, selfNames);
  if (cues.question || cues.greeting) return false;
  // Not claims (methodology, "Claims"): a possibility ("we might look at", "it could open early"), an offer
  // or instruction to customers ("customers can claim a refund"), an opinion or an aim with no figure to
  // check ("I'm proud of how we executed in 2024"), and a line with no verb (a dateline, a heading).
  if (cues.hedge || isOffer(sentence) || CHANCE.test(sentence) || DATELINE.test(sentence.trim())) return false;
  // (A view beside a forecast — "with our reservoirs in good shape, I don't expect a ban" — leaves the forecast.)
  const forecastWord = /\b(?:expect|expects|predict|predicts|forecast|forecasts|anticipate|bet)\b/i.test(sentence);
  const inWords = CHECKABLE_IN_WORDS.test(sentence) || (cues.guidance && BEST_WAY.test(sentence));
  if (!inWords && (cues.vague || (cues.opinion && !forecastWord)) && readQuantities(sentence).every((q) => q.unit === 'duration')) return false;
  // (A quotation is speech, never a heading, though its closing stop sits outside the marks.)
  if (!quoted && !doc.has('#Verb') && !/[.!?]["”’']?\s*$/.test(sentence)) return false;
  const dated = doc.has('(#Month|#Year|#WeekDay)') || /\b(19|20)\d\d\b/.test(sentence);
  // Courtesy to someone ("I'm sorry to hear that, Marcus.", "I understand the worry, Pat.") says nothing checkable.
  if (COURTESY.test(sentence) && figures.length === 0) return false;
  const self = selfNames.map((n) => tokens(n).join(' '));
  // A name said to the person addressed ("…, Sue.", "Marcus, …") is not what the sentence is about.
  const addressed = new Set([VOCATIVE_END.exec(sentence)?.[1], VOCATIVE_START.exec(sentence)?.[1]].filter((x): x is string => !!x).map((x) => tokens(x).join(' ')));
  const others = entities.filter((e) => !self.some((s) => s.includes(tokens(e).join(' '))) && !addressed.has(tokens(e).join(' ')));
  // "We have never been fined by the regulator", "Not one of our food banks closed": a definite statement of
  // one's own record, checkable though it has no figure or date.
  const record = (NEVER_RECORD.test(sentence) || CHECKABLE_IN_WORDS.test(sentence) || RECORD_IN_WORDS.some((r) => r.test(sentence))) && !cues.opinion;
  return figures.length > 0 || dated || others.length > 0 || cues.commitment || cues.forecast || cues.guidance || record;
}

const ADDRESSEES = 'customers|investors|passengers|residents|tenants|patients|people|you|anyone|readers|supporters|listeners|members|households|parents|families|visitors|users|subscribers|fans|shoppers|clients|viewers|students|applicants|callers|motorists|drivers|riders|travellers|travelers';
/** An offer or instruction to customers and the like: what they can do, where something is available, how to reach us. */
// "There is a chance, no more, that…": a possibility, not a forecast.
const CHANCE = /^\s*there(?:'s|’s| is| was)\s+(?:a|an|some|every|always a)\s+(?:\w+\s+)?(?:chance|possibility|risk)\b/i;
// A dateline on a line of its own ("FENWICK FALLS, Wis., Feb. 5, 2025").
const DATELINE = /^\p{Lu}{2,}[\p{Lu}\s.'’-]*,\s*(?:[\p{L}.]+,?\s*)?(?:[\p{L}.]+\s+\d{1,2},?\s*)?(?:(?:19|20)\d\d)?\s*[.-]?$/u;
// Checkable though it names no figure, date or other party: a share in words ("most accidental house fires start
// in the kitchen"), a place among peers ("no other paper in the county sells more", "the best-selling daily in the
// county"), a change over a stated period ("sales grew over the past year"), a decision of an authority ("the
// regulator cleared us").
const CHECKABLE_IN_WORDS = /^\s*(?:most|the majority of|a majority of|half of|nearly all|almost all|few|none of)\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,6}\s+(?:start|starts|come|comes|are|were|is|was|have|had|use|used|live|lived|go|went|end|ended)\b|\bno other\s+[\p{L}-]+\b[^.]{0,60}\b(?:more|bigger|larger|better|higher|faster|cheaper)\b|\bthe\s+(?:best[\s-]selling|biggest|largest|most[\s-]read|fastest[\s-]growing|oldest|cheapest)\b[^.]{0,60}\bin (?:the|this|our)\s+(?:county|region|country|state|city|town|league|area|sector|market)\b|\b(?:grew|rose|fell|increased|decreased|declined|dropped|went up|went down)\b[^.]{0,40}\b(?:(?:over|in|during)\s+the\s+)?(?:past|last|previous)\s+(?:year|twelve months|12 months|quarter|decade)\b|\b(?:is|are|was|were|stands?|stood|remains?|remained)\s+at\s+(?:a\s+)?record\s+(?:levels?|highs?|lows?)\b|\bthe\s+(?:regulator|ombudsman|watchdog|inspectorate|tribunal|court|auditor|standards board|commission)\s+(?:cleared|fined|censured|upheld|rejected|dismissed|found|ruled|ordered|criticised|criticized|approved)\b/iu;
// Definite statements of a record in words, checkable though they name no figure, date or other party (methodology,
// "Claims"): none or all of a kind ("No customer funds were lost", "Every prison now has a scanner", "we have paid
// every single eligible customer"); a place among peers ("cheaper than at any other national museum", "below the
// national average", "the most prescribed … in the country"); a share in words ("more than half of our work");
// a project's budget or schedule ("has come in on budget"); "never" done ("had never been detained"), "not a penny";
// and a future deed reported with its time ("the agency would publish a strategy before the end of the year").
const RECORD_IN_WORDS: readonly RegExp[] = [
  /^\s*(?:no|not a single|not one|none of (?:our|its|the|their))\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?\s+(?:was|were|has|have|had|is|are|did)\b/iu,
  /^\s*(?:every|each)\s+(?:single\s+)?(?:one\s+of\s+(?:our|its|their|the)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,4}?\s+(?:now\s+has\b|(?:has|have|had|was|were)\s+(?:now\s+)?(?:been\s+)?(?!been\b)[\p{L}]+(?:ed|en|t)\b)|\bevery\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?\s+(?:has|have|had)\s+been\s+[\p{L}]+(?:ed|en|t|de)\b|\b(?:has|have|had)\s+(?:been\s+)?[\p{L}]+\b[^.;?]{0,60}\bevery\s+single\b|^\s*all\s+(?:of\s+)?(?:our|its|their|the)\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?\s+(?:are|were|have|had|is|was|come|came)\b/iu,
  /\b(?:than|of)\s+any\s+other\b|\bthe\s+(?:national|regional|county|industry|sector)\s+average\b|\bthe\s+(?:most|least|highest|lowest|cheapest|biggest|largest)\b[^.;?]{0,60}\b(?:in|of)\s+(?:the|this|any|our)\s+(?:country|county|region|league|sector|industry|city|state|market|area)\b|\b(?:highest|lowest|cheapest|dearest|biggest|largest)\s+of\s+any\b/iu,
  /\b(?:(?:more|less|fewer)\s+than|just\s+(?:over|under)|nearly|almost)?\s*(?:half|a\s+third|a\s+quarter|two\s+thirds|three\s+quarters)\s+of\s+(?:our|its|their|the|every|all)\b/iu,
  /\b(?:came|come|comes|is|was|are|were|remains?|finished|delivered|running)\s+(?:in\s+)?(?:on|within|under|over)\s+budget\b|\b(?:on|ahead\s+of|behind)\s+schedule\b/iu,
  /\b(?:has|have|had)\s+never\s+(?:been\s+)?(?!been\b)[\p{L}]+(?:ed|en|t)\b(?!\s+(?:more|better|worse|less|so|as)\b)|\bnot\s+(?:a\s+penny|a\s+cent)\b|\bn['’]t\s+[\p{L}]+\s+a\s+(?:penny|cent)\b/iu,
  /\b(?:said|added|told\s+[\p{L}]+|confirmed|announced|pledged)\s+(?:that\s+)?(?:the\s+[\p{L}-]+|it|he|she|they|we)\s+would\s+(?:[\p{L}-]+\s+){1,8}?(?:by|before|in|within)\s+(?:the\s+)?(?:(?:end|start|middle)\s+of\s+(?:the\s+)?)?(?:year|summer|spring|autumn|winter|month|quarter|season)\b/iu,
];
const COURTESY = /^\s*(?:i'?m|i am|we'?re|we are)\s+(?:also\s+)?(?:so\s+|very\s+|really\s+|truly\s+|deeply\s+)?(?:sorry|glad|pleased|delighted|grateful|thankful)\s+(?:to hear|to (?:everyone|all|every|our|the|you)|you|that|for)\b|^\s*(?:we|i)\s+(?:would\s+like\s+to\s+|want\s+to\s+|wish\s+to\s+)?(?:thank|apologi[sz]e\s+to)\s+(?:our|every|everyone|all|the|you|them)\b|^\s*(?:i|we)\s+(?:understand|hear|appreciate|share)\s+(?:the|your|that|this)\s+(?:worry|concern|frustration|anger|point)\b|^\s*thank(?:s| you)\b/i;
const VOCATIVE_END = /,\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)[.!?]?["”’']?\s*$/u;
const VOCATIVE_START = /^\s*(?:(?:yes|no|well|look|so),?\s+)?(\p{Lu}[\p{L}'’-]+),\s/u;
const NEVER_RECORD = /\b(?:we|i)\s+(?:did|do|have|has|had)\s*(?:not|n['’]t)\s+[\p{L}]+\s+(?:a single|one single)\b|\b(?:we|i|our\s+[\p{L}-]+|the\s+(?:company|trust|council|service|club|paper|charity|network|association))\s+(?:have|has|had)?\s*(?:never|not once|not ever)\s+(?:been\s+)?[\p{L}]+(?:ed|en|t)\b|\b(?:not (?:a single|one)|none) of (?:our|its|their|the)\b[^.;]{0,60}\b(?:has|have|had|was|were|did)\b/iu;

/**
 * A heading: a line of twelve words or fewer, standing alone, with no closing stop ("Where we are: calendar year
 * 2024", "What we will do", "Hollin & Vane Brewing Group, Stannerbridge, 11 June 2025"). It names a subject; it
 * states nothing.
 */
function isHeadingLine(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const next = text.indexOf('\n', end);
  const lineEnd = next < 0 ? text.length : next;
  const quote = text.slice(start, end);
  return /^[\s\-•*–]*$/.test(text.slice(lineStart, start)) && text.slice(end, lineEnd).trim() === '' && !/[.!?]["”’']?$/.test(quote.trim()) && tokens(quote).length <= 12;
}

export function isOffer(sentence: string): boolean {
  const s = sentence.replace(/^[\s"“‘']+/, '');
  return new RegExp(`^(?:(?:all|any|existing|new|eligible|affected|our|trade|business|local|younger|older|regular)\\s+)?(?:${ADDRESSEES})\\b[^.;]*?\\b(?:can|may|are able to|will be able to|are welcome to|are invited to)\\b`, 'i').test(s)
    || /\b(?:is|are)\s+(?:also\s+|still\s+|now\s+)?available\s+(?:to|from|at|on|for|in)\b/i.test(s)
    || /\b(?:call|ring|contact|phone|email|text|write to|visit)\s+us\b/i.test(s)
    // "call our free safety line", "ring our advertising team on 01632 …": a service offered, not a claim.
    || /\b(?:call|ring|contact|phone|email|text)\s+(?:our|the)\s+(?:[\p{L}-]+\s+){0,3}(?:line|helpline|team|number|office|desk|centre|center)\b/iu.test(s)
    // "Cyclists are asked to take care…": a request to the public about the service itself.
    || /\b(?:are|is)\s+(?:being\s+)?(?:asked|reminded|requested|kindly asked|encouraged)\s+to\b/i.test(s)
    || /^you\s+can\b/i.test(s)
    // "Follow us on social media", "Sign up to our newsletter", "Check the sailing status page before leaving home":
    // a call to use the subject's own channels, not advice an authority could support or contradict.
    || /\b(?:are|is)\s+(?:now\s+)?on\s+sale\b/i.test(s)
    // "To report a power cut, call 105 free of charge."
    || /^(?:(?:to|in|if|for)\s+[^,]{3,60},\s*)?(?:always\s+)?(?:call|ring|phone|text|dial)\s+\d/i.test(s)
    // "Join a planting day at heathfield.example/plant", "Subscribe and save 15% on every delivery": a call to
    // take part or buy, addressed to the reader.
    || /^(?:please\s+)?(?:join|book|subscribe|sign\s+up|register|donate|apply|buy|order|shop)\b[^.;]*(?:\b[\w-]+\.(?:example|com|org|net|co\.uk|org\.uk|gov)\b|\band\s+save\b)/i.test(s)
    || /^(?:please\s+)?subscribe\s+and\s+save\b/i.test(s)
    || /^(?:if\s+you\b[^,]{0,80},\s*)?(?:please\s+)?(?:follow|sign\s+up|subscribe|register|download|join|like|share|visit|check(?:\s+in)?|book|keep\s+an\s+eye\s+on|keep\s+listening|tune\s+in|listen)\b(?:[^.;]|\.\d)*\b(?:us|our|online|newsletter|app|website|site|page|alerts|feed|channels?|social\s+media)\b/i.test(s);
}

/**
 * The extract stage. The subject must be one of the document's speakers. When the
 * subject is the only speaker, or publishes the document, the document's own
 * sentences are theirs; sentences quoted from, or reported of, others are not.
 * Otherwise only what is attributed to the subject counts: quotations with
 * "<name> said" or "said <name>", "<Name>: …" transcript lines, reported speech.
 */
const extracted = new Map<string, ExtractedClaim[]>();
export function extractClaims(doc: SourceDocument, subject: SubjectRef): ExtractedClaim[] {
  // The same document is read for the same subject twice in a research run: for its
  // claims, and again when it comes back as evidence (its own words never count there).
  const key = JSON.stringify([subject, doc.url, doc.title, doc.publisher, doc.published, doc.speakers, doc.text]);
  const known = extracted.get(key);
  if (known) return known;
  const claims = readClaims(doc, subject);
  if (extracted.size >= 2000) extracted.delete(extracted.keys().next().value as string);
  extracted.set(key, claims);
  return claims;
}

function readClaims(doc: SourceDocument, subject: SubjectRef): ExtractedClaim[] {
  const bySpeaker = subjectMatcher(subject);
  const others = doc.speakers.filter((s) => !bySpeaker(s));
  if (others.length === doc.speakers.length) return [];
  // People the document introduces in an office of the subject speak for it (officers.ts).
  // (And those the run's other documents introduce: subject.officers, runOfficers.)
  const here = subject.kind === 'person' ? [] : officersOf(doc.text, [subject.name, ...subject.aliases]);
  const known = subject.kind === 'person' ? [] : (subject.officers ?? []).filter((o) => !here.some((h) => h.join(' ') === o.join(' ')));
  const officers = [...here, ...known].filter((o) => !others.some((sp) => tokens(sp).join(' ') === o.join(' ')));
  const isSubject = withOfficers(subjectMatcher(subject, others), officers, others, subject.kind === 'person' ? [] : [subject.name, ...subject.aliases]);
  const ownPublication = isOwnPublication(doc, subject);
  const units = attribute(doc.text, isSubject, doc.speakers, ownPublication, subject.kind !== 'person');
  const explicitlyQuoted = units.some((u) => u.speaker.kind === 'named' && u.speaker.isSubject);
  // A third party's article naming the subject as sole speaker still speaks in its own voice
  // around the quotes; only when nothing is attributed do the plain sentences become the subject's.
  const narratorIsSubject = ownPublication || (others.length === 0 && !explicitlyQuoted);
  const selfNames = [subject.name, ...subject.aliases];
  const claims: ExtractedClaim[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    const theirs = unit.speaker.kind === 'narrator' ? narratorIsSubject : unit.speaker.isSubject;
    if (!theirs) continue;
    // A quotation of several sentences is read sentence by sentence, inside its marks ("Last season we finished
    // fourth from bottom. That's not good enough." holds one claim and one opinion).
    const [from, to] = unit.how === 'quotation' ? trimQuote(doc.text, unit.start, unit.end) : [unit.start, unit.end];
    for (const [a, b] of sentencesIn(doc.text, from, to)) {
      const [s, e] = trimQuote(doc.text, a, b);
      const quote = doc.text.slice(s, e);
      if (seen.has(quote) || (unit.how !== 'quotation' && isHeadingLine(doc.text, s, e))) continue;
      const view = parse(quote);
      const figures = figuresIn(view);
      const entities = entitiesIn(view);
      if (!isCheckable(quote, view, selfNames, figures, entities, unit.how === 'quotation')) continue;
      // What the quote calls by a common noun ("the hall") and its document named before: searched for with it.
      const referred = referents(quote, doc.text.slice(0, s)).filter((r) => !entities.includes(r));
      seen.add(quote);
      claims.push({
        quote,
        quote_verified: quote.length > 0 && doc.text.includes(quote),
        said_on: doc.published,
        source: { url: doc.url, title: doc.title, outlet: doc.publisher, published: doc.published },
        speaker: subject.name,
        attribution: unit.how,
        entities: [...entities, ...referred],
        keywords: keywordsIn(view),
        figures,
      });
    }
  }
  return claims;
}
