import { parse } from './parse.ts';
import { classifyClaim, isOutlook } from './classify.ts';
import { extractClaims } from './extract.ts';
import { documentPeriod } from './periods.ts';
import { affiliationsOf } from './grounding.ts';
import { isOwnPublication } from './rules.ts';
import type { CandidateClaim, Figure, SourceDocument, SubjectRef } from './types.ts';

// Stage "criteria": the fixed test each claim will be judged by, written from the
// claim alone before any evidence is looked at, so that the evidence cannot bend
// the test. The judge reads the same constants as this text states.

export type ClassifiedClaim = Omit<CandidateClaim, 'resolution_criteria'>;

/**
 * How far a reported figure may sit from the claimed one (relative difference,
 * against the independent source's figure) for each outcome. Beyond the last
 * band the claim is false. 2% allows for rounding in the claim.
 */
export const FIGURE_BANDS = [
  { outcome: 'true', within: 0.02 },
  { outcome: 'mostly_true', within: 0.1 },
  { outcome: 'mostly_false', within: 0.25 },
] as const;
/**
 * A source's figure further than this from the claimed one (the claim half as large again as it, or less than half of
 * it) is not read as the claim's own measure gone wrong: on the benchmark such pairs were more often two measures
 * (a part against a whole, another year, another body's figure, another column of a table) than a claim that far
 * off, and the figures judge does not settle a claim on them. A bound ("more than 500") is held to any figure.
 */
export const FIGURE_FAR = 0.5;

/** A factual claim is checked against sources published up to a year after it was made. */
export const FACT_WINDOW_DAYS = 365;
/** Evidence that a due promise or prediction was met may appear up to six months after its date. */
export const AFTER_DUE_DAYS = 182;
/** A promise or prediction with no stated date is judged two years after it was made. */
export const DEFAULT_HORIZON_DAYS = 730;

type TermJson = { text: string; normal: string; tags: string[]; post?: string };

const addDays = (isoDate: string, days: number): string =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const pct = (x: number): string => `${Math.round(x * 100)}%`;

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const quoted = (quote: string): string => `"${quote.replace(/[.!]+$/, '')}"`;

/**
 * What a sentence's figures measure, read from compromise's tags: the nouns right
 * after a figure ("3,200 [lead service lines]") or else the noun phrase the
 * sentence opens with ("[Revenue] rose 12%"), plus any years it names.
 */
export function measuredThing(quote: string, figures: readonly Figure[]): string {
  const terms = (parse(quote).json() as Array<{ terms: TermJson[] }>).flatMap((s) => s.terms);
  const isWord = (t: TermJson) => (t.tags.includes('Noun') || t.tags.includes('Adjective')) && !t.tags.some((g) => ['Pronoun', 'Value', 'Date', 'Possessive', 'Determiner'].includes(g));
  const parts: string[] = [];
  for (const f of figures) {
    const at = terms.findIndex((t) => f.text.includes(t.text.replace(/[,.;:]+$/, '')) && /\d|^(one|two|three|four|five|six|seven|eight|nine|ten)$/i.test(t.normal));
    const after: string[] = [];
    for (let i = at + 1; at >= 0 && i < terms.length; i++) {
      const t = terms[i];
      if (!t || !isWord(t) || t.tags.includes('Unit') && f.unit !== 'count') break;
      after.push(t.text);
      if (/[,.;:]/.test(t.post ?? '')) break;
    }
    parts.push(after.length ? `${f.text} ${after.join(' ')}` : f.text);
  }
  const opening: string[] = [];
  for (const t of terms) {
    if (['Verb', 'Value', 'Preposition'].some((g) => t.tags.includes(g))) break;
    if (isWord(t)) opening.push(t.text);
    if (/[,;:]/.test(t.post ?? '')) break;
  }
  const years = [...new Set(quote.match(/\b(19|20)\d\d\b/g) ?? [])];
  const what = opening.length && opening.length <= 5 ? ` for ${opening.join(' ')}` : '';
  return `${listOf(parts)}${what}${years.length ? ` in ${listOf(years)}` : ''}`;
}

function figureBands(subject: string): string {
  const [t, mt, mf] = FIGURE_BANDS;
  return `within ${pct(t.within)} of it is true, within ${pct(mt.within)} mostly_true, within ${pct(mf.within)} mostly_false, and ${subject} further off is false, up to ${pct(FIGURE_FAR)} off (a source's figure further off than that is taken to measure something else, and settles nothing)`;
}

function factual(c: ClassifiedClaim): string {
  const by = addDays(c.said_on, FACT_WINDOW_DAYS);
  if (c.figures.length > 0) {
    const several = c.figures.length > 1 ? '; mixed if some of its figures hold and others do not' : '';
    return `True if an independent source published on or before ${by} reports the figures of ${quoted(c.quote)} (${measuredThing(c.quote, c.figures)}) to within ${pct(FIGURE_BANDS[0].within)}, measured against the source's figure; ${figureBands('a figure')}${several}. Unresolvable if no independent source reports the figure.`;
  }
  const about = c.entities.length ? ` about ${listOf(c.entities.slice(0, 3))}` : '';
  return `True if an independent source published on or before ${by} confirms the statement${about} that ${quoted(c.quote)}; false if such a source shows it is wrong, mostly_true or mostly_false if it holds only with minor or major errors. Unresolvable if no independent source addresses it.`;
}

function dueDate(c: ClassifiedClaim): { due: string; stated: boolean } {
  return c.deadline ? { due: c.deadline, stated: true } : { due: addDays(c.said_on, DEFAULT_HORIZON_DAYS), stated: false };
}

function promise(c: ClassifiedClaim): string {
  const { due, stated } = dueDate(c);
  const when = stated ? `by ${due}` : `by ${due} (no date was stated, so it is judged two years after it was made)`;
  const count = c.figures[0];
  const partial = count
    ? `mostly_true if at least ${pct(1 - FIGURE_BANDS[1].within)} of ${count.text} was delivered, mixed if at least half, mostly_false if less`
    : 'mostly_true or mixed if it was done only in part';
  return `Kept (true) if independent sources show that ${c.speaker} carried out the commitment ${quoted(c.quote)} ${when}, late (on_time false) if done after that; ${partial}; false if the date passed without it. Pending until ${due}.`;
}

function prediction(c: ClassifiedClaim): string {
  const { due, stated } = dueDate(c);
  const until = addDays(due, AFTER_DUE_DAYS);
  const figures = c.figures.length ? `; for its figures (${listOf(c.figures.map((f) => f.text))}) against the outcome, ${figureBands('a figure')}` : '; mostly_true or mostly_false if it came about only in part';
  const when = stated ? `by ${due}` : `by ${due} (no date was stated, so it is judged two years after it was made)`;
  return `True if independent sources published on or before ${until} show that the forecast ${quoted(c.quote)} came about ${when}; false if they show it did not${figures}. Pending until ${due}.`;
}

function outlook(c: ClassifiedClaim): string {
  const { due, stated } = dueDate(c);
  const until = addDays(due, AFTER_DUE_DAYS);
  const figures = c.figures.length ? `; for its figures (${listOf(c.figures.map((f) => f.text))}) against the actual, a range holds when the actual lies inside it and a bound when the actual meets it, otherwise ${figureBands('a figure')}` : '';
  const when = stated ? `for ${due}` : `by ${due} (no date was stated, so it is judged two years after it was made)`;
  return `Guidance on the speaker's own figures: true if independent sources published on or before ${until} show the actual outcome ${when} in line with the outlook ${quoted(c.quote)}; false if they show it was not${figures}. Pending until ${due}.`;
}

function guidance(c: ClassifiedClaim): string {
  const by = addDays(c.said_on, FACT_WINDOW_DAYS);
  const details = c.figures.length ? `, including its figures (${listOf(c.figures.map((f) => f.text))})` : '';
  return `True if independent authoritative sources (public health, safety or regulatory bodies, or peer-reviewed research) current on ${c.said_on} or published by ${by} support the advice ${quoted(c.quote)}${details}; mostly_true if they support it with different details, false if they advise against it, unresolvable if none address it.`;
}

/** The criteria stage: the fixed test for one classified claim, in one or two plain sentences. */
export function writeCriteria(claim: ClassifiedClaim): string {
  if (claim.claim_type === 'guidance' && isOutlook(claim.quote)) return outlook(claim);
  switch (claim.claim_type) {
    case 'factual':
      return factual(claim);
    case 'promise':
      return promise(claim);
    case 'prediction':
      return prediction(claim);
    case 'guidance':
      return guidance(claim);
  }
}

/** extract → classify → criteria for one document: the claims ready for evidence search. */
export function candidateClaims(doc: SourceDocument, subject: SubjectRef): CandidateClaim[] {
  const affiliations = subject.kind === 'person' ? affiliationsOf(subject.description) : [];
  const selfNames = [subject.name, ...subject.aliases, ...affiliations];
  const docPeriod = documentPeriod(doc.title, doc.text, doc.published);
  const context = { self_names: selfNames, doc_period: docPeriod, speaks_for_body: subject.kind !== 'person' || affiliations.length > 0, own_document: isOwnPublication(doc, subject) };
  return extractClaims(doc, subject).map((claim) => {
    const classified: ClassifiedClaim = { ...claim, ...classifyClaim(claim.quote, { said_on: claim.said_on, ...context }) };
    return { ...classified, resolution_criteria: writeCriteria(classified) };
  });
}
