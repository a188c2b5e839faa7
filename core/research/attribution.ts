import nlp from 'compromise';
import { parse, sentenceTexts } from './parse.ts';
import type { ExtractedClaim, SubjectRef } from './types.ts';

// Whose words a document holds (for the extract stage, extract.ts): a
// document is cut into stretches, each with who said it (the document's own
// voice, or someone it names: the subject or not) and how that is known (a
// transcript turn, a quotation, reported speech). Sentences, quotations, names
// and verbs come from compromise.

type TermJson = { text: string; normal: string; root?: string; tags: string[]; pre?: string; post?: string };
type How = ExtractedClaim['attribution'];

/** Who said a stretch of text: the document's own voice, or someone it names. */
type Speaker = { kind: 'narrator' } | { kind: 'named'; isSubject: boolean };
export interface Unit { start: number; end: number; speaker: Speaker; how: How }

const SPEECH_VERBS = new Set(['say', 'tell', 'add', 'announce', 'pledge', 'promise', 'predict', 'warn', 'claim', 'state', 'insist', 'argue', 'note', 'explain', 'write', 'vow', 'confirm', 'forecast', 'reply', 'answer', 'admit', 'acknowledge', 'urge', 'recommend', 'advise']);
// Labels that open a transcript line without being anyone's name.
const ROLE_LABELS = new Set(['q', 'a', 'question', 'answer', 'interviewer', 'host', 'moderator', 'chair', 'presenter', 'reporter', 'operator', 'caller', 'analyst', 'audience']);
export const QUOTE_MARKS = '"“”„';

export const tokens = (s: string): string[] =>
  s.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

function containsSeq(hay: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((t, j) => hay[i + j] === t)) return true;
  return false;
}

/**
 * Does a piece of text name the subject? Name and aliases match as whole words,
 * and a leading "the" is optional ("the Ledger" for "The Ledger"). Given the other
 * speakers of a document, a person is also known by surname ("said Thale") unless
 * one of them shares it; without that list the surname is not trusted.
 */
export function subjectMatcher(subject: SubjectRef, otherSpeakers?: readonly string[]): (text: string) => boolean {
  const names = [subject.name, ...subject.aliases].map((n) => tokens(n)).map((t) => (t[0] === 'the' && t.length > 1 ? t.slice(1) : t));
  const surname = tokens(subject.name).at(-1);
  const surnameShared = !otherSpeakers || otherSpeakers.some((s) => tokens(s).at(-1) === surname);
  if (subject.kind === 'person' && surname && surname.length >= 3 && !surnameShared) names.push([surname]);
  return (text) => {
    const hay = tokens(text);
    return names.some((n) => containsSeq(hay, n));
  };
}

/** The sentences of a stretch of text, located exactly in the full document text. */
export function sentencesIn(text: string, from: number, to: number): Array<[number, number]> {
  const slice = text.slice(from, to);
  const out: Array<[number, number]> = [];
  let cursor = 0;
  // The tokenizer alone splits sentences exactly as a full parse does, without the cost of tagging.
  for (const s of sentenceTexts(slice)) {
    const at = slice.indexOf(s.trim(), cursor);
    if (at < 0) continue;
    out.push([from + at, from + at + s.trim().length]);
    cursor = at + s.trim().length;
  }
  return out;
}

/** A stretch of text that reports speech, resolved to who spoke; null when it is not speech. */
function speechIn(context: string, isSubject: (t: string) => boolean, last: Speaker | null): Speaker | null {
  const doc = parse(context);
  doc.compute('root');
  const verbs = (doc.match('#Verb').json() as Array<{ terms: TermJson[] }>).flatMap((m) => m.terms);
  const speaks = verbs.some((t) => SPEECH_VERBS.has(t.root ?? t.normal)) || doc.has('according to');
  if (!speaks) return null;
  if (isSubject(context)) return { kind: 'named', isSubject: true };
  // Who speaks is named next to the verb ("she said", "said Ada Finch", "the council said"), not by a
  // place or body further on ("she said in an interview at the society's Wyvernbridge office").
  const agent = speakerWords((doc.json() as Array<{ terms: TermJson[] }>).flatMap((m) => m.terms));
  const view = agent === null ? doc : parse(agent);
  if (agent !== null && isSubject(agent)) return { kind: 'named', isSubject: true };
  if (!view.has('#ProperNoun')) {
    if (view.has('(he|she|they)')) return last ?? { kind: 'named', isSubject: false };
    if (view.has('(i|we|me|us|my|our)')) return { kind: 'narrator' };
  }
  return { kind: 'named', isSubject: false };
}

/**
 * A quotation a clause introduces with a colon ("On spending, he was specific: '…'", "Rourke was blunt: '…'"):
 * the person that clause is about speaks it. Null when nothing before the quotation ends in a colon.
 */
function colonIntro(before: string, isSubject: (t: string) => boolean, last: Speaker | null): Speaker | null {
  const clause = /^([^:]*?)\s*:\s*["“‘']?\s*$/.exec(before)?.[1];
  if (!clause || tokens(clause).length > 16) return null;
  const view = parse(clause);
  const people = view.match('#Person+').out('array') as string[];
  // Who the clause is about is the person it names; the subject only when no one else is named.
  if (people.some((p) => !isSubject(p))) return { kind: 'named', isSubject: false };
  if (isSubject(clause)) return { kind: 'named', isSubject: true };
  if (view.has('#ProperNoun')) return { kind: 'named', isSubject: false };
  if (view.has('(he|she|they) (was|were|is|are|has been|had been) .')) return last ?? { kind: 'named', isSubject: false };
  return null;
}

/**
 * The words that name who speaks: those right before the speech verb (back to a comma or a closing
 * quotation mark) or, when none, right after it up to a preposition or "that". Null when there is no
 * speech verb to stand by (an "according to").
 */
function speakerWords(terms: readonly TermJson[]): string | null {
  const at = terms.findIndex((t) => t.tags.includes('Verb') && SPEECH_VERBS.has(t.root ?? t.normal));
  if (at < 0) return null;
  const before: string[] = [];
  for (let k = at - 1; k >= 0 && before.length < 5; k--) {
    const t = terms[k]!;
    if (/[,"“”]/.test(t.post ?? '') || t.tags.includes('Preposition')) break;
    before.unshift(t.text);
    if (/[,"“”]/.test(t.pre ?? '')) break;
  }
  if (before.some((w) => /\p{L}/u.test(w))) return before.join(' ');
  // "A neighbour, who did not want to be named, told us…": the speaker opens the sentence, before the clause about them.
  if (at > 0 && /,/.test(terms[at - 1]!.post ?? '')) {
    const first = terms.findIndex((t) => /,/.test(t.post ?? ''));
    if (first >= 0 && first < at - 1 && first < 5) return terms.slice(0, first + 1).map((t) => t.text).join(' ');
  }
  const after: string[] = [];
  for (let k = at + 1; k < terms.length && after.length < 5; k++) {
    const t = terms[k]!;
    if (t.tags.includes('Preposition') || t.normal === 'that') break;
    after.push(t.text);
    if (/[,.;:!?]/.test(t.post ?? '')) break;
  }
  return after.some((w) => /\p{L}/u.test(w)) ? after.join(' ') : null;
}

/**
 * The part of an unquoted sentence that reports speech, if it does: a main verb of
 * speech with its subject ("Brightwater said in a statement that…"), a short
 * trailing tag (", the transport authority said."), or "according to". A speech
 * verb deep inside the sentence ("a year after Brightwater promised a cut") is the
 * writer's own account, not reported speech.
 */
function reportedContext(sentence: string): string | null {
  // A live blog's time stamp ("11:32 He told us…") is no part of the sentence.
  const stamp = /^\s*\d{1,2}[:.]\d{2}\s+(?=\p{L})/u.exec(sentence);
  if (stamp) return reportedContext(sentence.slice(stamp[0].length));
  const doc = parse(sentence);
  if (doc.has('according to')) return sentence;
  // "She went on to say that…", "He was quick to add that…": the speech verb after a verb of going on.
  const goesOn = /^\s*(?:[\p{L}'’.-]+\s+){1,6}?(?:went|goes|go|going|was quick|were quick|is quick|has gone|had gone)\s+(?:on\s+)?to\s+(?:say|add|tell|claim|insist|argue|note|explain|predict|promise|warn|point out|stress|concede|admit)\b/iu.exec(sentence);
  if (goesOn) return goesOn[0];
  doc.compute('root');
  const terms = (doc.json() as Array<{ terms: TermJson[] }>).flatMap((s) => s.terms);
  const isSpeech = (t: TermJson | undefined) => !!t && t.tags.includes('Verb') && SPEECH_VERBS.has(t.root ?? t.normal);
  const isMain = (t: TermJson) => t.tags.includes('Verb') && !t.tags.some((g) => g === 'Auxiliary' || g === 'Modal');
  let main = terms.findIndex(isMain);
  // (A capitalised first word the tagger reads as a command is a noun: "Resort spokesperson Kirsty Lamont told us…".)
  if (main === 0 && !isSpeech(terms[0]) && terms[0]!.tags.includes('Imperative')) main = terms.findIndex((t, i) => i > 0 && isMain(t));
  // compromise sometimes misses the real main verb ("bills rose" read as a noun), so a speech
  // verb only opens the sentence when what comes before it is short and holds no figure.
  const opening = terms.slice(0, main);
  if (main >= 0 && isSpeech(terms[main]) && opening.length <= 8 && !opening.some((t) => t.tags.includes('Value'))) {
    return terms.slice(0, main + 1).map((t) => t.text).join(' ');
  }
  const lastComma = terms.findLastIndex((t) => (t.post ?? '').includes(','));
  const tail = terms.slice(lastComma + 1);
  if (lastComma >= 0 && tail.length <= 6 && (isSpeech(tail[0]) || isSpeech(tail.at(-1)))) return tail.map((t) => t.text).join(' ');
  // A short opener before the speaker ("Looking ahead, she promised…") is read past.
  const opener = /^\s*(?:[\p{L}'’-]+\s+){0,4}[\p{L}'’-]+,\s+(?=\p{L})/u.exec(sentence);
  return opener ? reportedContext(sentence.slice(opener[0].length)) : null;
}

/** Quotations of four words or more; shorter ones are scare quotes inside someone's sentence. */
const quoteCache = new Map<string, Array<[number, number]>>();
function quotesIn(sentence: string): Array<[number, number]> {
  const known = quoteCache.get(sentence);
  if (known) return known;
  const out: Array<[number, number]> = [];
  let cursor = 0;
  // A fresh parse: .quotations() is not a pure read of a shared view.
  for (const q of nlp(sentence).quotations().out('array') as string[]) {
    const at = sentence.indexOf(q.trim(), cursor);
    if (at < 0) continue;
    cursor = at + q.trim().length;
    if (tokens(q).length >= 4) out.push([at, cursor]);
  }
  if (quoteCache.size >= 5000) quoteCache.delete(quoteCache.keys().next().value as string);
  quoteCache.set(sentence, out);
  return out;
}

const escapeRe = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The last person a sentence names: a listed speaker, a tagged person, or a title and name ("Mayor Ada Finch"). */
function personIn(sentence: string, speakers: readonly string[]): string | null {
  const hay = tokens(sentence);
  // A listed speaker named by a shorter first name ("Ros Quarrie" for Rosalind Quarrie) is still that speaker.
  const listed = speakers.filter((s) => containsSeq(hay, tokens(s)) || (tokens(s).length > 1 && !/^the\s/i.test(s.trim()) && new RegExp(`\\b(?!(?:The|A|An|This|That|Its|Our|Their|His|Her)\\s)\\p{Lu}[\\p{L}.'’-]*\\s+${escapeRe(s.trim().split(/\s+/).at(-1)!)}\\b`, 'u').test(sentence)));
  if (listed.length) return listed.at(-1) ?? null;
  const doc = parse(sentence);
  const found = [...(doc.match('#Person+').out('array') as string[]), ...(doc.match('(#Actor|#Honorific) #ProperNoun+').out('array') as string[])];
  return found.at(-1) ?? null;
}

/** Split a document into stretches, each with who said it and how we know. */
export function attribute(text: string, isSubject: (t: string) => boolean, speakers: readonly string[], ownPublication: boolean, speaksForMany = true): Unit[] {
  const units: Unit[] = [];
  let last: Speaker | null = null;
  // The paragraph the last person was named in, and whether the subject has been named or heard yet.
  let lastPara = -1;
  let subjectSeen = false;
  // In a document that carries one subject's words only, "she said" points back to a person named in the same
  // paragraph or the one before; a person named further back (a critic quoted earlier in a profile) has given
  // way to the article's own subject, who is who its pronouns follow.
  const soleSpeaker = speakers.length === 1 && isSubject(speakers[0]!);
  const pronounTarget = (): Speaker | null =>
    last && last.kind === 'named' && !last.isSubject && soleSpeaker && subjectSeen && lastPara < para - 1 ? { kind: 'named', isSubject: true } : last;
  const setLast = (sp: Speaker) => {
    last = sp;
    lastPara = para;
    if (sp.kind === 'named' && sp.isSubject) subjectSeen = true;
  };
  let transcript: Speaker | null = null;
  const labels = new Map<string, number>();
  for (const m of text.matchAll(/^\s*(\p{Lu}[\p{L}.'’-]*):\s/gmu)) labels.set(m[1]!, (labels.get(m[1]!) ?? 0) + 1);
  let lastQuote: { speaker: Speaker; para: number } | null = null;
  let para = -1;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const start = lineStart;
    lineStart += line.length + 1;
    if (!line.trim()) continue;
    para += 1;
    const label = /^\s*([\p{Lu}][\p{L}.'’-]*(?:\s+[\p{Lu}][\p{L}.'’-]*){0,4}):\s+/u.exec(line);
    const labelText = label?.[1] ?? '';
    // (In a transcript, a one-word label that opens two lines or more is a turn: "Gazette: And Dublin?")
    const isLabel = label !== null && (ROLE_LABELS.has(labelText.toLowerCase()) || speakers.some((s) => tokens(s).join(' ') === tokens(labelText).join(' ')) || isSubject(labelText) || nlp(labelText).has('^#ProperNoun+$') || /^\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){1,3}$/u.test(labelText) || (transcript !== null && (labels.get(labelText) ?? 0) >= 2));
    if (isLabel && label) {
      // In the subject's own transcript (an investor call, say) its people speak for it; interviewers do not.
      const otherSpeaker = speakers.some((sp) => !isSubject(sp) && containsSeq(tokens(labelText), tokens(sp)));
      // A body's people speak for it; a person's co-host or guest on their own show does not speak for them.
      const ownVoice = speaksForMany && ownPublication && !ROLE_LABELS.has(labelText.toLowerCase()) && !otherSpeaker;
      transcript = { kind: 'named', isSubject: isSubject(labelText) || ownVoice };
      setLast(transcript);
      units.push({ start: start + label[0].length, end: start + line.length, speaker: transcript, how: 'transcript' });
      continue;
    }
    if (transcript) {
      // In a transcript an unlabelled paragraph carries on the last speaker's turn.
      units.push({ start, end: start + line.length, speaker: transcript, how: 'transcript' });
      continue;
    }
    for (const [sStart, sEnd] of sentencesIn(text, start, start + line.length)) {
      const sentence = text.slice(sStart, sEnd);
      const quotes = quotesIn(sentence);
      if (quotes.length === 0) {
        const reported = reportedContext(sentence);
        const said: Speaker | null = reported === null ? null : speechIn(reported, isSubject, pronounTarget());
        if (said?.kind === 'named') {
          setLast(said);
          // A quotation in the next paragraph with no tag of its own carries on the speaker just reported ("She said … ." then "'I can promise …'").
          lastQuote = { speaker: said, para };
        }
        // "Mayor Ada Finch disagreed. 'Bills will rise,' she said." – a pronoun points at the last person named.
        const person: string | null = said ? null : personIn(sentence, speakers);
        if (person) setLast({ kind: 'named', isSubject: isSubject(person) });
        units.push({ start: sStart, end: sEnd, speaker: said ?? { kind: 'narrator' }, how: said && said.kind === 'named' ? 'reported_speech' : 'own_document' });
        continue;
      }
      let context = sentence;
      for (const [a, b] of quotes) context = context.slice(0, a) + ' '.repeat(b - a) + context.slice(b);
      const said: Speaker | null = speechIn(context, isSubject, pronounTarget()) ?? colonIntro(sentence.slice(0, quotes[0]![0]), isSubject, pronounTarget()) ?? (lastQuote && lastQuote.para >= para - 1 ? lastQuote.speaker : null);
      if (!said) {
        units.push({ start: sStart, end: sEnd, speaker: { kind: 'narrator' }, how: 'own_document' });
        continue;
      }
      if (said.kind === 'named') setLast(said);
      lastQuote = { speaker: said, para };
      for (const [a, b] of quotes) units.push({ start: sStart + a, end: sStart + b, speaker: said, how: 'quotation' });
    }
  }
  return units;
}
