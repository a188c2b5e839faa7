import { affiliationsOf } from './rules.ts';

// Grounding (methodology, "Evidence about the claim's subject"): a passage is
// evidence for a claim only when it is about what the claim is about: the
// bodies or people the claim names, or, when it names none or speaks in the
// first person, the speaker (its name, an alias, a person's surname, and for
// a person's "we" the organisation their description says they lead). A
// sentence names them, or refers back to them: a sentence that names nobody
// ("That is a fall of 6.1%", "The company missed its target") is about
// whoever the last sentence naming someone was about. A sentence naming only
// other bodies or people is about them, not the claim's subject. Names are
// read from capitalisation, so that invented names are read as well as known
// ones; a capitalised word after "in", "at", "across" and the like is read as
// a place, which says where and not who.

const LOWER_INSIDE = new Set(['and', 'of', 'for', 'the', '&', 'de', 'on', 'upon']);
const NOT_NAMES = new Set([
  'the', 'a', 'an', 'in', 'on', 'at', 'by', 'for', 'but', 'and', 'or', 'of', 'to', 'from', 'with', 'as', 'it', 'its', 'this', 'that', 'these', 'those', 'there', 'their', 'they',
  'we', 'our', 'i', 'he', 'she', 'his', 'her', 'you', 'your', 'my', 'if', 'when', 'while', 'after', 'before', 'since', 'during', 'under', 'over', 'all', 'every', 'each', 'some', 'most', 'no', 'not',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'q', 'mr', 'mrs', 'ms', 'dr',
  // Feasts and holidays date a claim; they name no one ("by Easter", "before Christmas").
  'easter', 'christmas', 'whitsun', 'michaelmas', 'hogmanay', 'halloween', 'thanksgiving', 'ramadan', 'eid', 'diwali', 'hanukkah', 'passover',
  "i'm", "i've", "i'd", "i'll", "we're", "we've", "we'd", "we'll", "it's", "that's", "there's", "here's", "let's", "don't", "can't", "won't",
]);
const PLACE_BEFORE = /\b(in|at|across|near|around|throughout|outside|inside|within|from|to|into|towards?|between|serving|covering|of central|of north|of south|of east|of west)\s*$/i;
// A name that says it is a place: "Pendle Road", "Hallam Cross station", "Millbeck Park", "Kiln Lane".
// Facilities a body builds or runs are things, not bodies: "the Riverside Stand", "the Harlow Cross Hub".
const PLACE_WORD = /\s(?:Road|Street|Lane|Avenue|Square|Cross|Park|Bridge|Way|Place|Hill|Green|Estate|Station|Wharf|Quay|Terrace|Gardens|Close|Drive|Circus|Junction|Stand|Stadium|Ground|Hub|Plant|Depot|Store|Library|Pool|Line|Link|Tower|Building|Wing|Ward|Campus|Terminal|Reservoir|Works|Centre|Center)$/;
/** A name that says it is a place or a facility ("Pendle Road", "the Riverside Stand"). */
export const isFacilityName = (name: string): boolean => PLACE_WORD.test(` ${name.trim()}`);
const TITLES = /^(dr|doctor|prof|professor|mr|mrs|ms|miss|sir|dame|lord|lady|cllr|councillor|commissioner|chief|mayor)\.?\s+/i;

export type NameSpan = { text: string; start: number; end: number; place: boolean; initial: boolean };

const words = (s: string): string[] => s.toLowerCase().normalize('NFKC').replace(/['’]s\b/g, '').match(/[\p{L}\p{N}&]+/gu) ?? [];

/** Capitalised names in a sentence ("Dunmere Water", "Office of Rail Statistics", "NVHT"), each flagged when it reads as a place or opens the sentence. */
export function namesIn(sentence: string): NameSpan[] {
  const out: NameSpan[] = [];
  const re = /(?:\p{Lu}[\p{L}'’.-]*|\p{Lu}{2,})(?:\s+(?:(?:and|of|for|the|&|upon|on)\s+)*(?:\p{Lu}[\p{L}'’.-]*|\p{Lu}{2,}))*/gu;
  for (const m of sentence.matchAll(re)) {
    let text = m[0].replace(/['’]s$/, '').replace(/[.'’-]+$/, '');
    let start = m.index;
    // Drop leading words that are not names ("The", "In December", "But").
    const parts = text.split(/\s+/);
    while (parts.length && (NOT_NAMES.has(parts[0]!.toLowerCase().replace(/[.'’]/g, '')) || LOWER_INSIDE.has(parts[0]!))) {
      start += parts[0]!.length + 1;
      parts.shift();
    }
    while (parts.length && (NOT_NAMES.has(parts.at(-1)!.toLowerCase()) || LOWER_INSIDE.has(parts.at(-1)!))) parts.pop();
    if (parts.length === 0) continue;
    text = parts.join(' ');
    // A label's word ("Category 1", "Scope 2", "Phase 3") is not a name.
    if (parts.length === 1 && /^\s+\d/.test(sentence.slice(start + text.length))) continue;
    const before = sentence.slice(0, start);
    const initial = /^[\s"“‘'(\[\-–—*•]*$/.test(before) || /[:.!?|\]]["”’']?\s*$/.test(before);
    out.push({ text, start, end: start + text.length, place: PLACE_BEFORE.test(before) || PLACE_WORD.test(text), initial });
  }
  return out;
}

/**
 * `impersonal`: the claim names nobody and does not speak in the first person
 * ("About one household in thirty used a food bank"): a passage that names
 * nobody may bear on it too, but never one about someone else.
 */
export type Actors = { names: string[][]; surnames: string[]; impersonal: boolean; speaker?: string[][]; places?: string[][] };

/** Token sequences of names, with a leading "the" and a title dropped ("Dr Ashcombe" → "ashcombe"). */
function forms(names: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const n of names) {
    const plain = words(n.replace(TITLES, ''));
    const t = plain[0] === 'the' && plain.length > 1 ? plain.slice(1) : plain;
    if (t.length) out.push(t);
  }
  return out;
}

function containsSeq(hay: string[], needle: string[]): boolean {
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((t, j) => hay[i + j] === t)) return true;
  return false;
}

export { affiliationsOf };

const SPEECH = /\b(said|says|claimed|claims|stated|states|told|tells|insisted|insists|added|adds|announced|announces|argued|argues|asserted|asserts|suggested|suggests|wrote|writes)\b/i;

/**
 * Whether a sentence carries the speaker's own words: quotation marks with its
 * name or surname, or its name (or "the article", "the statement") as the one
 * who said or claimed it ("The article said Harnford General had…", "…, the
 * company said."). What a subject says is never evidence about it, whoever
 * repeats it; a finding that mentions what it reported ("well above the figure
 * the company reported") is still a finding.
 */
export function quotesSubject(sentence: string, actors: Actors): boolean {
  if (!actors.speaker) return false;
  const t = words(sentence);
  const named = actors.speaker.some((f) => containsSeq(t, f)) || actors.surnames.some((s) => t.includes(s));
  if (/["“”]/.test(sentence) && named) return true;
  const lower = sentence.toLowerCase();
  // "<speaker>'s statement that …", "the company's claim that …": its words, reported.
  if (named && /['’]s\s+(?:own\s+)?(?:statement|claim|assertion|announcement|pledge|promise|boast)\s+that\b/i.test(sentence)) return true;
  // "a <speaker> editorial of 16 February stated that …", "<speaker> told investors in May that …": its words, reported, whatever stands between the name and the verb of speech.
  for (const f of [...actors.speaker.map((x) => x.join(' ')), ...actors.surnames]) {
    const name = f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const at = new RegExp(String.raw`\b${name}\b(?:['’]s)?(?:\s+[\p{L}\d,'’-]+){0,6}?\s+(?:has\s+|had\s+)?(?:stated|said|claimed|wrote|reported|told\s+[\p{L}-]+|promised|pledged|announced|asserted|boasted|insisted)\s+that\b`, 'u');
    if (at.test(lower)) return true;
  }
  const who = [...actors.speaker.map((f) => f.join(' ')), ...actors.surnames, 'the article', 'the story', 'the statement', 'the press release', 'the post', 'the company', 'the paper', 'the newspaper'];
  for (const w of who) {
    const i = lower.indexOf(w);
    if (i < 0) continue;
    const after = lower.slice(i + w.length);
    // "<speaker> said …" opening the sentence, or ", <speaker> said." closing it.
    if (/^(?:['’]s\s+\w+\s+)?\s*(?:has\s+|had\s+|have\s+)?(said|says|claimed|claims|stated|states|told|insisted|added|announced|argued|asserted|wrote|writes)\b/.test(after) && (i < 3 || /,\s*$/.test(lower.slice(0, i)) || /^\W*(?:the\s+)?$/.test(lower.slice(0, i)))) return true;
  }
  return SPEECH.test(sentence) && /^[^,]*,\s*(?:the\s+)?[\w\s'’]{0,40}\s(said|says|added|insisted|claimed)\.?\s*$/i.test(sentence) && named;
}

const FRAME = /^\s*(?:and\s+|but\s+|so\s+)?(?:(?:i|we)(?:'d| would| can| do)?\s+(?:confidently\s+|firmly\s+|fully\s+|still\s+)?(?:predict|expect|forecast|think|believe|reckon|suspect|estimate|anticipate|project|guarantee|bet|tip)s?\s+(?:that\s+)?|(?:our|my)\s+(?:central\s+|main\s+|latest\s+)?(?:forecast|prediction|expectation|estimate|projection|view|tip)\s+is\s+(?:that\s+)?|i'?m\s+(?:telling\s+you|confident|sure|certain)\s+(?:that\s+)?)/i;

export type SubjectLike = { name: string; kind: string; aliases: readonly string[]; description?: string | null };

/**
 * Whom a claim is about: the bodies and people it names (other than places),
 * and the speaker when it speaks in the first person, names the speaker, or
 * names nobody else. A person's "we" is their organisation's.
 */
export function claimActors(quote: string, speaker: SubjectLike, referred: readonly string[] = []): Actors {
  const own = [speaker.name, ...speaker.aliases];
  const ownForms = forms(own);
  const surnames: string[] = [];
  if (speaker.kind === 'person') {
    const last = words(speaker.name).at(-1);
    if (last && last.length >= 3) surnames.push(last);
  }
  const named = namesIn(quote).filter((n) => !n.place && !(n.initial && !n.text.includes(' ') && !/^\p{Lu}{2,}$/u.test(n.text)));
  const others = named.filter((n) => {
    const t = words(n.text);
    return !ownForms.some((f) => containsSeq(t, f) || containsSeq(f, t)) && !surnames.some((s) => t.includes(s));
  });
  // What is claimed, less the frame that only says who claims it ("I predict that…", "Our central forecast is that…").
  const content = quote.replace(FRAME, '');
  const firstPerson = /\b(we|our|ours|us|i|my|me|i'm|i've|i'd|we're|we've|we'll|i'll)\b/i.test(content);
  const plural = /\b(we|our|ours|us|we're|we've|we'll)\b/i.test(content);
  const namesSpeaker = named.length > others.length;
  // "She added that the company had paid…": reported speech that refers to the speaker's body by a generic noun.
  const refersToBody = new RegExp(`\\b(?:the|its|their)\\s+(?:${BODY_NOUNS})\\b`, 'i').test(content);
  const names: string[][] = [];
  if (firstPerson || namesSpeaker || others.length === 0 || refersToBody) {
    names.push(...ownForms);
    if (speaker.kind === 'person' && (plural || others.length === 0 || refersToBody)) names.push(...forms(affiliationsOf(speaker.description)));
  }
  names.push(...forms(others.map((n) => n.text)));
  // The places a claim names are part of what it is about ("unemployment in Eastmere"): a source about
  // the place, naming no one else, bears on it.
  // (And what it calls by a common noun, "the hall" for Fenwright Hall, named before it in its own document.)
  const places = forms([...namesIn(quote).filter((n) => n.place).map((n) => n.text), ...referred]);
  return {
    places, names, surnames: firstPerson || namesSpeaker || others.length === 0 ? surnames : [], impersonal: !firstPerson && named.length === 0, speaker: ownForms };
}

/** The names a claim's entities add to its quote: what it calls by a common noun (extract.ts, `referents`). */
export function referredTo(claim: { quote: string; entities: readonly string[] }): string[] {
  return claim.entities.filter((e) => e.includes(' ') && !claim.quote.includes(e));
}

/**
 * What "the hall" or "the bridge" in a claim names, from the text before it in its own document ("Fenwright Hall
 * closed in October 2023 … The hall will reopen by Easter"): the last name there that ends in that noun.
 */
export function referents(quote: string, context: string): string[] {
  if (!context) return [];
  const named = namesIn(context).filter((n) => n.text.includes(' '));
  const out: string[] = [];
  for (const m of quote.matchAll(/\b[Tt]he\s+(\p{Ll}{3,})\b/gu)) {
    const noun = m[1]!;
    const last = named.filter((n) => n.text.split(/\s+/).at(-1)!.toLowerCase() === noun).at(-1);
    if (last) out.push(last.text);
  }
  return out;
}

/**
 * Whether a table row is about someone other than the actors: in a table whose first column lists bodies (its
 * heading is a kind of body, "Port", "Operator", "Club"), a row whose label is not one of theirs
 * ("Brackwater | 6.38 | 6.40" beside "Saltmere | 5.71 | 6.11").
 */
export function rowOfOther(row: string, header: string, actors: Actors): boolean {
  const heading = header.split('|')[0]!.trim().toLowerCase();
  if (!new RegExp(`^(?:the\\s+)?(?:${BODY_NOUNS}|port|carrier|brewer|maker|name|provider|employer|institution|organisation)s?$`, 'i').test(heading)) return false;
  // (A row that names them in another cell, "Evening Weather | Westmoor Broadcasting | 1.28", is theirs.)
  const places = { names: actors.places ?? [], surnames: [], impersonal: false };
  const cells = row.split('|').map((c) => c.trim()).filter((c) => /\p{L}/u.test(c));
  return cells.length > 0 && !cells.some((c) => isActorName(c, actors) || isActorName(c, places));
}

/** Whether a sentence names in full (two words or more) a place the claim names or calls by a common noun. */
export function namesClaimPlace(sentence: string, actors: Actors): boolean {
  const t = words(sentence);
  return (actors.places ?? []).some((f) => f.length >= 2 && containsSeq(t, f));
}

export type About = 'actor' | 'other' | 'none';

/** Whether a name is one of the actors'. */
export function isActorName(name: string, actors: Actors): boolean {
  const t = words(name.replace(TITLES, ''));
  const tt = t[0] === 'the' && t.length > 1 ? t.slice(1) : t;
  if (tt.length === 0) return false;
  // A body is also called by the first word of its name ("Corvale" for "Corvale Transit Authority").
  return actors.names.some((f) => containsSeq(tt, f) || (tt.length >= 2 && containsSeq(f, tt)) || (tt.length === 1 && f.length >= 2 && f[0] === tt[0] && tt[0]!.length >= 4))
    || actors.surnames.some((s) => tt.at(-1) === s);
}

/** What one sentence is about, from its own names: the actors, someone else, or nobody named. */
export function sentenceAbout(sentence: string, actors: Actors, publisher = ''): About {
  // The document's own publisher named in it is its narrator ("The Agency advises…"), not someone else.
  const pub = { names: publisher ? forms([publisher]) : [], surnames: [], impersonal: false };
  const names = namesIn(sentence).filter((n) => !(pub.names.length && isActorName(n.text, pub) && !isActorName(n.text, actors)));
  // The claim's subject named anywhere ("at Orrin Foods bakeries" reads like a place, and is still theirs).
  if (names.some((n) => isActorName(n.text, actors))) return 'actor';
  // Someone else named (a body or person, not a place, not a sentence's first word alone) makes it theirs.
  const places = { names: actors.places ?? [], surnames: [], impersonal: false };
  const whoElse = names.filter((n) => !n.place && !isActorName(n.text, places) && !(n.initial && !n.text.includes(' ') && !/^\p{Lu}{2,}$/u.test(n.text)));
  if (whoElse.length) return 'other';
  // Otherwise a place the claim names ("in Eastmere", "Eastmere's rate") ties it to the claim.
  return names.some((n) => isActorName(n.text, places)) ? 'actor' : 'none';
}

/**
 * For each sentence of a document (in order), whether it is about the actors:
 * by its own names, else by the last sentence before it that named someone.
 */
export function groundSentences(sentences: readonly string[], actors: Actors, publisher = ''): boolean[] {
  let carried: About = 'none';
  // A heading that names someone ("Common Larder Network (registered charity 1188420)", "Severnmoor Water")
  // makes the lines under it theirs until the next heading.
  let section: About = 'none';
  return sentences.map((s) => {
    const about = sentenceAbout(s, actors, publisher);
    if (isHeading(s)) section = about;
    // Only a sentence that names someone changes whom "the company" or "it" refers back to.
    if (about !== 'none') carried = about;
    const effective = about !== 'none' ? about : refersBack(s) ? carried : section;
    return effective === 'actor' || (actors.impersonal && effective === 'none');
  });
}

/** A heading: a short line without a sentence's closing stop and without a table's cells. */
export function isHeading(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && !/[.!?]["”’']?$/.test(t) && !t.includes('|') && t.split(/\s+/).length <= 12;
}

// Generic nouns a text uses to refer back to a body it has named ("the company", "the trust").
export const BODY_NOUNS = 'company|firm|group|business|trust|council|authority|network|charity|club|side|team|paper|newspaper|title|outlet|institute|association|service|operator|supplier|utility|organisation|organization|body|board|hospital|university|centre|center|agency|bank|provider|landlord|retailer|chain|insurer|airline|school|college|regulator|department|ministry|force|brigade|party|campaign|programme|program|project|scheme|fund|foundation|society|league|federation|union|institution|practice|clinic|station|newsroom|broadcaster|station|economist|forecaster|pundit|tipster|director|executive|chair|editor|commissioner|minister|official|spokesperson|spokesman|spokeswoman';
const REFERS_BACK = new RegExp(`^[\\s"“‘'(]*(?:(?:and|but|so|yet|however|meanwhile|overall|in total|by then|since then|of (?:these|those|them|this|that)),?\\s+)?(?:it|its|it's|they|their|them|he|his|she|her|this|that|these|those|such|both|the (?:${BODY_NOUNS})(?:'s|’s)?)\\b`, 'i');
// "Of these, 380,000 were…", "Among them…", "That included…": a part of what the sentence before counted.
const PART_OF_BEFORE = /^[\s"“‘'(]*(?:of (?:these|those|them|which|this|that(?: total| number)?)|among (?:them|these|those)|within (?:that|this) (?:total|figure))\b/i;
const BACK_INSIDE = new RegExp(`\\b(?:its|their|his|her|it|they|them|the (?:${BODY_NOUNS})(?:'s|’s)?)\\b`, 'i');

/** Whether a sentence that names nobody refers back to someone named before ("It missed…", "That is a fall of…", "…, the trust said"). */
export function refersBack(sentence: string): boolean {
  return REFERS_BACK.test(sentence) || BACK_INSIDE.test(sentence) || PART_OF_BEFORE.test(sentence);
}

/**
 * Within a sentence about the actors, whether a figure at `at` belongs to
 * someone else: the nearest name before it in its clause is another's ("…,
 * while Dunmere Water renewed 212,400 metres").
 */
export function figureBelongsToOther(sentence: string, at: number, actors: Actors): boolean {
  const before = sentence.slice(0, at);
  const clauseStart = Math.max(before.lastIndexOf(';'), before.search(/,\s+(?:while|whereas|but|compared with|against)\b[^,;]*$/i), before.lastIndexOf('. '));
  const inClause = namesIn(sentence).filter((n) => n.end <= at && n.start >= clauseStart && !(n.initial && !n.text.includes(' ') && !/^\p{Lu}{2,}$/u.test(n.text)));
  // A clause that names the claim's subject before the figure is about it ("Brindmoor United's Tomas Varga won
  // the Golden Boot with 19 goals", "a survey found Fairweather's prices 2.6% higher", "the contract for
  // Calderbrook Airport's North Terminal, signed with Hollin Construction"); one that names only others is theirs.
  if (inClause.some((n) => isActorName(n.text, actors))) return false;
  const names = inClause.filter((n) => !n.place);
  if (names.length > 0) return true;
  // A figure for a whole field ("across all services, 41%", "the national average of 72%") is not the subject's own.
  const clause = before.slice(Math.max(0, before.lastIndexOf(';'), before.lastIndexOf('. '), before.search(/,\s+(?:while|whereas|but|compared with|against)\b[^,;]*$/i)));
  return AGGREGATE.test(clause) || GROUP.test(clause);
}

// A group counted or named as several ("the five largest parcel fleets added 2,370", "the 38 large fleet keepers held
// 214,600 vans", "Between them they own 291 pubs", "at the four ports totalled 25.8 million tonnes"): their figure, not one body's.
const GROUP = /^\s*(?:[\p{L}-]+\s+){0,3}?(?:the|all|both)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+s\b|\bbetween\s+them\b|\b(?:together|collectively)\b/iu;
const AGGREGATE = /^\s*(?:all\s+)?(?:suppliers|operators|councils|trusts|hospitals|airlines|retailers|companies|firms|clubs|schools|providers|landlords|insurers|banks|forces|services|networks|chains|supermarkets|utilities|charities)\b(?!\s+(?:at|of|in)\s+\p{Lu})|\b(?:across\s+(?:all|every|the\s+(?:country|sector|industry|region|nation))|(?:the\s+)?national(?:ly)?\s+(?:average|figure|rate|median)?|nationwide|\p{L}+[\s-]wide|(?:the|an?)\s+(?:average|median)\s+(?:for|across|of\s+all)|all\s+(?:other\s+)?(?:services|trusts|operators|suppliers|councils|forces|providers|companies|firms|clubs|schools|hospitals|authorities)|(?:every|each)\s+other)\b/iu;
