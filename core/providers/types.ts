/**
 * The research pipeline reaches the world only through these interfaces. The
 * offline engine (local/) answers from the corpus in PostgreSQL; hosted
 * adapters (web search, fetch, Wikidata, models) implement the same shapes,
 * chosen by configuration, without changing the pipeline.
 */

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
};

/** A fetched document: what a page says, with who published it and when. */
export type FetchedDocument = {
  url: string;
  title: string;
  publisher: string;
  published: string | null;
  speakers: string[];
  text: string;
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
 * Providers): its stages are deterministic. Hosted adapters implement this
 * with structured output validated by zod, and record every call's cost.
 */
export interface ModelProvider {
  readonly name: string;
  /** One structured completion: the answer is parsed and validated by the caller's schema. */
  complete<T>(request: { purpose: string; system: string; prompt: string; parse: (raw: unknown) => T }): Promise<T>;
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
};

/** Whether an office is held on a day (an office with no end date is held now). */
export function holdsOfficeOn(offices: readonly Office[], day: string): boolean {
  return offices.some((o) => (!o.from || o.from <= day) && (!o.to || o.to >= day));
}
