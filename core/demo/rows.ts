import { createHash } from 'node:crypto';
import type { Outcome } from '../method/outcomes.ts';
import { subjectIdFor } from '../corpus/pack.ts';
import type { SubjectKind } from '../providers/types.ts';

/**
 * One imported claim with the outcome a publisher gave it: what every format's
 * parser produces, before the machine has judged it.
 */
export type DemoRow = {
  /** The demo set it belongs to (liar, claimreview, promises, fte-governors, …). */
  dataset: string;
  /** The row's identity within the data set (a statement id, a review URL, a race and candidate). */
  source_id: string;
  subject: { name: string; kind: SubjectKind };
  /** The claim's wording as the data set gives it. */
  quote: string;
  /** The day the fixed test counts from (YYYY-MM-DD). */
  date: string;
  /**
   * `stated`: the data set gives the day the claim was made. `latest_possible`:
   * it does not, and `date` is the latest day it can have been made (when the
   * data set was published, or its sources first archived).
   */
  date_basis: 'stated' | 'latest_possible';
  /** Where the claim was made, when the data set says (never the publisher's review of it). */
  source_url: string | null;
  /** The publisher's page for its rating: shown to readers, never to the judge. */
  reference_url: string | null;
  /** The publisher's own rating, as published. */
  publisher_rating: string;
  /** That rating on the service's scale; null where it has no place on it. */
  published_outcome: Outcome | null;
  /** Forecast sets: the published probability that the claim comes true. */
  forecast_probability: number | null;
};

export type ParseProblem = { line: number | null; message: string };
export type ParseResult = {
  rows: DemoRow[];
  problems: ParseProblem[];
  /** Records read from the file (lines, objects or CSV rows), including skipped ones. */
  read: number;
  /** Names the data set in subjects' descriptions ("LIAR (PolitiFact ratings)"). */
  title: string;
};

export type ParseOptions = {
  /** The demo set's name; each format has a default. */
  dataset?: string;
  /** At most this many claims. */
  limit?: number;
  /** The subject, for formats whose file does not name one (promise trackers, forecasts). */
  subject?: string;
  kind?: SubjectKind;
  /** For rows that give no date: the latest day their claims can have been made. */
  saidOn?: string;
};

/**
 * What the machine judge is given, and all it is given: the quote, who said it,
 * and when. Built from a row by picking these fields, so the publisher's rating,
 * its outcome, a forecast probability or the review's URL cannot reach it.
 */
export type Statement = {
  claim_id: string;
  subject_id: string;
  speaker: string;
  kind: SubjectKind;
  quote: string;
  date: string;
  date_basis: 'stated' | 'latest_possible';
  /** Where it was said; `urn:demo:<claim_id>` when the data set does not say. */
  source_url: string;
};

/** Stable across imports: the same data set and row give the same claim id. */
export function demoClaimId(dataset: string, sourceId: string): string {
  return `clm_${createHash('sha256').update(`demo\n${dataset}\n${sourceId}`).digest('hex').slice(0, 20)}`;
}

export function statementOf(row: DemoRow): Statement {
  const claim_id = demoClaimId(row.dataset, row.source_id);
  return {
    claim_id,
    subject_id: subjectIdFor(row.subject.kind, row.subject.name),
    speaker: row.subject.name,
    kind: row.subject.kind,
    quote: row.quote,
    date: row.date,
    date_basis: row.date_basis,
    source_url: row.source_url ?? `urn:demo:${claim_id}`,
  };
}

export const isIsoDate = (s: unknown): s is string =>
  typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** The date part of an ISO 8601 date or timestamp, when it is a real calendar date. */
export function isoDay(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const d = s.trim().slice(0, 10);
  return isIsoDate(d) ? d : null;
}

export const isHttpUrl = (s: unknown): s is string => typeof s === 'string' && /^https?:\/\/\S+$/i.test(s.trim()) && s.length <= 2000;
