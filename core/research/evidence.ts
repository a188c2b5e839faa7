import type { FetchedDocument, KnownSubject } from '../providers/types.ts';
import { extractClaims } from './extract.ts';
import { claimTerms, isChangeWord, overlap, remember, sentenceSpans, stem, words, type ClaimTerms } from './judge-text.ts';
import type { CandidateClaim, EvidenceItem } from './types.ts';
export type { EvidenceItem };
import { isIndependent, isPartyStatement, mayBeEvidence } from './rules.ts';
import { claimActors, groundSentences, quotesSubject, referredTo, rowOfOther, type Actors } from './grounding.ts';
import { isTableRow, readTableRow } from './table-figures.ts';
import { readQuantities } from './quantities.ts';
import { checkedFigures } from './claim-figures.ts';
import { SERIES } from './judge-series.ts';
import { peerCondition } from './judge-peers.ts';

// Stage "evidence": documents that bear on a claim, each with the passage (one or
// two consecutive sentences, verbatim) that bears on it most, and whether it is
// independent of the subject. The judges read these passages and nothing else.


/** A passage shares at least this share of the claim's terms (by weight) to count as bearing on it. */
export const MIN_RELEVANCE = 0.25;
/**
 * ...and at least this many anchors (shared words other than names, shared years
 * and numerals), one of them a word: a shared place name and year are not enough.
 */
export const MIN_ANCHORS = 2;
const QUERY_TERMS = 8;
/** The subject's own sentences per document, kept across the claims of one research run. */
const ownWords = new Map<string, string[]>();

export { isIndependent };

/**
 * A full-text query that asks for any two of the claim's distinctive words
 * together ("a b OR a c OR b c…" in websearch syntax, where AND binds tighter).
 * One word alone (a place name, a year) would pull in most of the corpus; all of
 * them together would miss the sources that word the matter differently.
 */
export function searchQuery(claim: CandidateClaim, ct: ClaimTerms = claimTerms(claim)): string {
  const picked: string[] = [];
  const seen = new Set<string>();
  const candidates = [
    ...claim.entities.flatMap((e) => words(e)),
    ...claim.keywords.flatMap((k) => words(k)),
    ...words(claim.quote),
  ];
  // The claim's own word for a stem, as a full-text stemmer reads it ("children", not the lemma "child").
  const surface = new Map<string, string>();
  for (const w of words(claim.quote)) if (!surface.has(stem(w))) surface.set(stem(w), w);
  for (const w of candidates) {
    const s = stem(w);
    if (!/^[\p{L}]{3,}$/u.test(w) || !ct.terms.has(s) || seen.has(s)) continue;
    seen.add(s);
    picked.push(/^[\p{L}]{3,}$/u.test(surface.get(s) ?? '') ? surface.get(s)! : w);
    if (picked.length === QUERY_TERMS) break;
  }
  const wordsPicked = picked.length;
  for (const n of ct.numbers.slice(0, 2)) picked.push(n);
  // A month the claim dates itself by ("at June 30") pairs with its words as a number does.
  for (const m of [...(ct.months ?? [])].slice(0, 1)) picked.push(m);
  if (picked.length < 2) return picked.join(' ');
  const pairs: string[] = [];
  for (let i = 0; i < picked.length; i++) for (let j = i + 1; j < picked.length; j++) pairs.push(`${picked[i]} ${picked[j]}`);
  // A change may be reported the other way or in another word ("fell" against "rose by 7%", "increased"):
  // the claim's first words of substance are asked for beside any word of change.
  if (picked.some((w) => isChangeWord(w))) {
    const subjects = picked.filter((w) => !isChangeWord(w) && /^[\p{L}]+$/u.test(w)).slice(0, 2);
    for (const w of subjects) for (const c of CHANGE_FORMS) pairs.push(`${w} ${c}`);
  }
  // A claim with one word of substance ("Backlog stood at $2.6 billion") is looked for by that word alone too:
  // the source may give the figure in other units ("$2,310 million").
  if (wordsPicked === 1) pairs.push(picked[0]!);
  return pairs.join(' OR ');
}

/** The forms of the words of change a full-text stemmer does not bring together (irregular past tenses among them). */
const CHANGE_FORMS = ['rise', 'rose', 'risen', 'fall', 'fell', 'fallen', 'increase', 'decrease', 'grow', 'grew', 'drop', 'decline', 'reduce', 'shrank'];

type Scored = { start: number; end: number; line: number; score: number; words: number; anchors: number };

function bears(x: Scored | undefined): x is Scored {
  return x !== undefined && x.score >= MIN_RELEVANCE && x.words >= 1 && x.anchors >= MIN_ANCHORS;
}

/**
 * The passage of a document that bears most on the claim: its best sentence, with
 * the sentence before or after it in the same paragraph when that one bears on the
 * claim too (so "opened in May. The second will not open until 2026." stays whole).
 * Sentences in `skip` (the subject's own words, quoted) are never chosen.
 */
export function bestPassage(ct: ClaimTerms, text: string, skip: readonly string[] = [], actors?: Actors, title = '', publisher = '', units: ReadonlySet<string> = new Set()): { quote: string; relevance: number; table_header?: string; table_rows?: number } | null {
  const scored: Scored[] = [];
  const spans = sentenceSpans(text);
  const grounded = actors ? groundSentences([title, ...spans.map((s) => text.slice(s.start, s.end))], actors, publisher).slice(1) : null;
  for (const [k, s] of spans.entries()) {
    const sentence = text.slice(s.start, s.end);
    if (grounded && !grounded[k]) continue;
    // The subject's own words quoted in someone else's article ("Rourke was blunt: '…'") are not evidence about it,
    // nor is anyone's unchecked statement: a turn in a transcript, a quotation, a first-person forecast.
    if (actors && quotesSubject(sentence, actors)) continue;
    if (isStatement(text, s.start, sentence)) continue;
    if (skip.some((q) => sentence.includes(q) || q.includes(sentence))) continue;
    // A table row is read with its column headings, which say what its cells measure; the heading row itself
    // states nothing (its words are read with each row under it).
    const header = isTableRow(sentence) ? tableHeader(text, s.start) : undefined;
    if (header && actors && rowOfOther(sentence, header, actors)) continue;
    if (isTableRow(sentence) && header === undefined && isTableRow(text.slice(s.end + 1, text.indexOf('\n', s.end + 1) < 0 ? undefined : text.indexOf('\n', s.end + 1)))) continue;
    const o = overlap(ct, header ? `${header}\n${sentence}` : sentence);
    // A sentence that shares the claim's words and states a figure of the claim's kind (a count of parcels beside
    // "more than 3.1 million parcels") is anchored by that figure, though its value differs.
    const figure = units.size > 0 && o.shared.some((w) => !ct.names.has(w)) && (header ? readTableRow(sentence, header) : readQuantities(sentence)).some((q) => units.has(q.unit)) ? 1 : 0;
    scored.push({ ...s, score: o.score, words: o.shared.filter((w) => !ct.names.has(w)).length, anchors: o.anchors + figure });
  }
  let best: Scored | undefined;
  for (const x of scored) if (bears(x) && (!best || x.score > best.score + 1e-9)) best = x;
  if (!bears(best)) {
    // Two neighbouring sentences that bear on the claim together ("… distributed 1,150,000 parcels. Of these,
    // 380,000 (33 per cent) were for children."), when neither does alone.
    let pair: { a: Scored; b: Scored; score: number } | null = null;
    for (let k = 0; k + 1 < scored.length; k++) {
      const [a, b] = [scored[k]!, scored[k + 1]!];
      if (a.line !== b.line || spans.findIndex((x) => x.start === b.start) - spans.findIndex((x) => x.start === a.start) !== 1) continue;
      const o = overlap(ct, text.slice(a.start, b.end));
      const both: Scored = { start: a.start, end: b.end, line: a.line, score: o.score, words: o.shared.filter((w) => !ct.names.has(w)).length, anchors: o.anchors };
      if (bears(both) && a.anchors >= 1 && b.anchors >= 1 && (!pair || both.score > pair.score)) pair = { a, b, score: both.score };
    }
    if (!pair) return null;
    const quote = text.slice(pair.a.start, pair.b.end);
    return { quote, relevance: overlap(ct, quote).score };
  }
  const i = scored.indexOf(best);
  // A neighbour joins when it shares anchors of its own (641,200 customers beside a sentence on leakage).
  const near = (x: Scored | undefined): x is Scored => x !== undefined && x.line === best.line && x.words >= 1 && x.anchors >= MIN_ANCHORS;
  // Neighbours in the text only: a sentence left out between them (another body's) breaks the passage.
  const adjacent = (x: Scored | undefined) => x !== undefined && (spans.findIndex((s) => s.start === x.start) - spans.findIndex((s) => s.start === best.start)) ** 2 === 1;
  const [before, after] = [scored[i - 1], scored[i + 1]].map((x) => (adjacent(x) ? x : undefined));
  const partner = near(after) && (!near(before) || (after?.score ?? 0) >= (before?.score ?? 0)) ? after : near(before) ? before : undefined;
  const start = Math.min(best.start, partner?.start ?? Infinity);
  const end = Math.max(best.end, partner?.end ?? -Infinity);
  const quote = text.slice(start, end);
  const header = isTableRow(quote) ? tableHeader(text, start) : undefined;
  return { quote, relevance: overlap(ct, header ? `${header}\n${quote}` : quote).score, ...(header ? { table_header: header, table_rows: tableRows(text, start) } : {}) };
}

/** The lines of a text, the line a row at `at` stands on, and the first and last lines of its table. */
function tableAround(text: string, at: number): { lines: string[]; first: number; row: number; last: number } {
  const lines = text.split('\n');
  let offset = 0;
  let row = 0;
  for (; row < lines.length; row++) {
    if (offset + lines[row]!.length >= at) break;
    offset += lines[row]!.length + 1;
  }
  let first = row;
  while (first > 0 && isTableRow(lines[first - 1]!)) first--;
  let last = row;
  while (last + 1 < lines.length && isTableRow(lines[last + 1]!)) last++;
  return { lines, first, row, last };
}

/** The rows of the table a row at `at` belongs to, below its heading, verbatim. */
export function tableBody(text: string, at: number): string {
  const { lines, first: heading, row, last } = tableAround(text, at);
  // The heading row stays out (the judges read it as table_header).
  const first = heading < row ? heading + 1 : heading;
  const start = lines.slice(0, first).reduce((n, l) => n + l.length + 1, 0);
  const end = lines.slice(0, last + 1).reduce((n, l) => n + l.length + 1, 0) - 1;
  return text.slice(start, end);
}

/** The number of rows (below the heading) in the table a row at `at` belongs to. */
export function tableRows(text: string, at: number): number {
  const { first, last } = tableAround(text, at);
  return last - first;
}

const LABEL = /^\s*(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}):\s/u;
const labelCounts = new Map<string, Map<string, number>>();
/**
 * Whether a line's "Label:" names a speaker (a transcript turn) rather than a section ("Fares:", "Access:"):
 * a full name of two or more words, or a one-word label that opens two or more lines of the document.
 */
function isSpeakerLabel(text: string, label: string): boolean {
  if (label.trim().split(/\s+/).length >= 2) return true;
  const counts = labelCounts.get(text) ?? remember(labelCounts, text, (() => {
    const m = new Map<string, number>();
    for (const line of text.split('\n')) {
      const l = LABEL.exec(line)?.[1];
      if (l) m.set(l, (m.get(l) ?? 0) + 1);
    }
    return m;
  })(), 500);
  return (counts.get(label) ?? 0) >= 2 || [...counts.values()].filter((n) => n >= 2).length >= 2;
}

const SPEECH_VERB = /\b(said|says|told|added|insisted|argued|claimed|predicted|promised|warned|reckons?|thinks?|believes?)\b/i;
/** Someone's statement rather than a finding: a transcript turn ("Name: …"), a quotation with its speaker, a first-person forecast or view. */
export function isStatement(text: string, at: number, sentence: string): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const label = LABEL.exec(text.slice(lineStart, lineStart + 60))?.[1];
  if (label && !isTableRow(sentence) && isSpeakerLabel(text, label)) return true;
  if (/["“”]/.test(sentence) && SPEECH_VERB.test(sentence)) return true;
  return /\b(?:i|we)\s+(?:(?:would|'d|do)\s+)?(?:predict|expect|reckon|think|believe|fancy|tip|forecast|guarantee|promise)\b/i.test(sentence);
}

/** The heading row of the table a row at `at` belongs to: the first line of its run of lines with cells. */
export function tableHeader(text: string, at: number): string | undefined {
  const lines = text.slice(0, at).split('\n');
  lines.pop();
  let header: string | undefined;
  while (lines.length && isTableRow(lines.at(-1)!)) header = lines.pop();
  // A note just above the table that gives its scale ("Figures are millions of passenger journeys.",
  // "All figures in £m") applies to every cell, as a scale in the heading would: it is carried into the heading.
  const note = lines.at(-1) ?? '';
  // (So does a caption that introduces the table, "Average weekly reach, 2024 (millions of viewers):".)
  const caption = /:\s*$/.test(note) || /\((?:[^()]*\b(?:billions?|millions?|thousands?)\b[^()]*|[£$€]\s?(?:m|bn))\)/i.test(note);
  const scale = header && note.length <= 160 && (caption || /\b(?:figures?|values?|numbers?|amounts?|data)\b/i.test(note)) ? /\b(billions?|millions?|thousands?)\b|([£$€])\s?(m|bn)\b/i.exec(note) : null;
  if (header && scale) {
    const cells = header.split('|');
    const word = scale[1] ? scale[1].toLowerCase().replace(/s$/, '') : scale[3]!.toLowerCase() === 'bn' ? 'billion' : 'million';
    return cells.map((c, j) => (j === 0 ? c : `${c.trimEnd()} (${scale[2] ?? ''}${word}) `)).join('|');
  }
  return header;
}

/**
 * The evidence stage, in two halves so that the reading can run on a worker
 * thread: `findDocuments` (jobs/pipeline/search.ts, at the edge) searches the
 * corpus for the claim (leaving out its own source) and fetches each hit; `selectEvidence` keeps the documents whose
 * best passage bears on the claim. Independent items come first, since only
 * they can settle a claim; then by relevance, then URL, so the same corpus
 * always gives the same list.
 */
export function selectEvidence(claim: CandidateClaim, subject: KnownSubject, docs: readonly FetchedDocument[], limit: number): EvidenceItem[] {
  const ct = claimTerms(claim);
  const ref = { name: subject.name, kind: subject.kind, aliases: subject.aliases, urls: subject.urls, description: subject.description };
  const actors = claimActors(claim.quote, subject, referredTo(claim));
  const units = new Set(checkedFigures(claim.quote, claim.claim_type).map((f) => f.unit));
  const items: EvidenceItem[] = [];
  for (const doc of docs) {
    if (!mayBeEvidence(doc, subject)) continue;
    // Another party's own statement is its claim, not a finding (the subject's own documents stay: they are named, never counted).
    if (isPartyStatement(doc) && isIndependent(doc, subject)) continue;
    // What the subject itself says in a document (quoted, or in its own voice) is not evidence about it.
    const key = `${subject.subject_id}\n${doc.url}\n${doc.text}`;
    const own = ownWords.get(key) ?? remember(ownWords, key, extractClaims({ ...doc, published: doc.published ?? '1970-01-01' }, ref).map((c) => c.quote));
    // Up to two passages a document: a table gives one row for each of two clubs, a report two findings.
    const skip = [...own];
    for (let k = 0; k < 2; k++) {
    const found = bestPassage(ct, doc.text, skip, actors, doc.title, doc.publisher, units);
    if (!found) break;
    // A claim about every period of a run ("has gone up every year since 2019") is read against the whole
    // table, row by row, not against the one row that shares most of its words.
    const passage = found.table_header && (SERIES.test(claim.quote) || peerCondition(claim.quote)) ? { ...found, quote: tableBody(doc.text, doc.text.indexOf(found.quote)) } : found;
    skip.push(passage.quote);
    items.push({
      url: doc.url,
      publisher: doc.publisher,
      published: doc.published,
      quote: passage.quote,
      independent_of_subject: isIndependent(doc, subject),
      relevance: Math.round(passage.relevance * 1000) / 1000,
      ...(passage.table_header ? { table_header: passage.table_header, table_rows: passage.table_rows ?? 0 } : {}),
    });
    }
  }
  items.sort((a, b) => Number(b.independent_of_subject) - Number(a.independent_of_subject) || b.relevance - a.relevance || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return items.slice(0, limit);
}
