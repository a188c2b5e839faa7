/**
 * The research pipeline reaches the world only through these interfaces. The
 * offline engine (local/) answers from the corpus in PostgreSQL; hosted
 * adapters (web search, fetch, Wikidata, models) implement the same shapes,
 * chosen by configuration, without changing the pipeline.
 */

import type { ZodType } from 'zod';

export type SubjectKind = 'person' | 'organisation' | 'outlet';

export type Office = { title: string; from?: string | null; to?: string | null };

export type KnownSubject = {
  subject_id: string;
  name: string;
  kind: SubjectKind;
  aliases: string[];
  description: string | null;
  public_figure: boolean;
  offices: Office[];
  serving_politician: boolean;
  urls: string[];
  handles: string[];
  demo: boolean;
  /** Invented sample data (a pack marked `sample`, or a description that opens "SAMPLE DATA"): its documents may be evidence for it. */
  sample?: boolean;
};

/** A fetched document: what a page says, with who published it and when. */
export type FetchedDocument = {
  url: string;
  title: string;
  publisher: string;
  published: string | null;
  speakers: string[];
  text: string;
  /** From a source pack marked as invented sample data: never evidence about a real subject (methodology, "Evidence"). */
  sample?: boolean;
};

export type SearchHit = {
  url: string;
  title: string;
  publisher: string;
  published: string | null;
  /** Relevance, higher is better; comparable only within one answer. */
  rank: number;
};

export type SearchOptions = {
  limit: number;
  /** Leave these out (the claim's own source, say). */
  excludeUrls?: readonly string[];
};

export interface SearchProvider {
  readonly name: string;
  search(query: string, opts: SearchOptions): Promise<SearchHit[]>;
}

export interface FetchProvider {
  readonly name: string;
  /** The document at a URL, or null when there is none (or it may not be fetched). */
  fetch(url: string): Promise<FetchedDocument | null>;
}

export interface KnowledgeProvider {
  readonly name: string;
  /** Subjects known by this name or alias (case-insensitive), optionally of one kind. */
  lookup(name: string, kind?: SubjectKind | null): Promise<KnownSubject[]>;
  /** Subjects one of whose own sites a URL lies on, or who go by one of the handles. */
  byIdentifiers(urls: readonly string[], handles: readonly string[]): Promise<KnownSubject[]>;
  byId(subjectId: string): Promise<KnownSubject | null>;
}

/**
 * A language model for the stages that can use one (identification,
 * extraction, fixed tests, judging). The offline engine has none (`null` in
 * Providers): its stages are deterministic. Hosted adapters (core/providers/model/)
 * implement this with structured output: the answer is parsed as JSON and
 * validated by the request's zod schema; an invalid answer is asked for again
 * once with the validation error, then the call throws ModelError. Every call's
 * tokens and cost are recorded in the day's spend; an identical request
 * (same model, system, prompt and schema) is answered from the cache, unpaid.
 */
export interface ModelProvider {
  readonly name: string;
  /** The model called, as recorded in spend and shown in reports. */
  readonly model: string;
  complete<T>(request: ModelRequest<T>): Promise<T>;
}

export type ModelRequest<T> = {
  /** What the call is for (identify, extract, criteria, judge-a, judge-b…): recorded in spend. */
  purpose: string;
  system: string;
  prompt: string;
  /** The answer's shape; also sent to the provider as a JSON schema where it takes one. */
  schema: ZodType<T>;
  /** A model other than the adapter's default (the second judge's, say). */
  model?: string;
  maxOutputTokens?: number;
  /** Neither read from nor written to the cache (text a user submitted to be checked, which is deleted when its job ends). */
  ephemeral?: boolean;
};

/** A published fact-check of a claim (ClaimReview), read as evidence. */
export type PublishedFactCheck = {
  /** The claim as the fact-checker worded it. */
  claim_text: string;
  claimant: string | null;
  claim_date: string | null;
  url: string;
  title: string | null;
  publisher: string;
  reviewed_on: string | null;
  /** The fact-checker's own rating, as published (e.g. "False", "Mostly true"). */
  rating: string;
};

export interface FactCheckProvider {
  readonly name: string;
  search(query: string, opts: { limit: number }): Promise<PublishedFactCheck[]>;
}

/** Finds documents in which a subject speaks: the source of its claims. */
export interface StatementProvider {
  readonly name: string;
  statementsBy(subject: KnownSubject, opts: { limit: number }): Promise<FetchedDocument[]>;
}

export type Providers = {
  search: SearchProvider;
  fetch: FetchProvider;
  knowledge: KnowledgeProvider;
  statements: StatementProvider;
  /** null: the offline engine, with no model. */
  model: ModelProvider | null;
  /** null: no published fact-checks are read. */
  factCheck?: FactCheckProvider | null;
  /** The second judge's model (MODEL_JUDGE_NAME); null: the model's own, with a different prompt. */
  secondJudgeModel?: string | null;
};

/** Whether an office is held on a day (an office with no end date is held now). */
export function holdsOfficeOn(offices: readonly Office[], day: string): boolean {
  return offices.some((o) => (!o.from || o.from <= day) && (!o.to || o.to >= day));
}
