import type { Queryable } from '../core/db/pool.ts';
import type { Statement } from '../core/demo/rows.ts';
import type { DemoJudge } from '../core/demo/import.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { FetchedDocument, KnownSubject, Providers } from '../core/providers/types.ts';
import { toJudgedClaim, type JudgedClaim } from '../core/research/claims.ts';
import { classifyClaim } from '../core/research/classify.ts';
import { runAssess as realRunAssess } from './pipeline/cpu-pool.ts';
import { writeCriteria, type ClassifiedClaim } from '../core/research/criteria.ts';
import { findDocuments as realFindDocuments } from './pipeline/search.ts';
import { extractClaims } from '../core/research/extract.ts';
import { DEPTHS } from './pipeline/run.ts';
import type { CandidateClaim } from '../core/research/types.ts';

/**
 * The machine judge of demo claims: the research pipeline's own stages, run on
 * one statement whose wording, speaker and date come from a data set instead
 * of a document the pipeline found. Its only input is a Statement (quote,
 * speaker, kind, date, where it was said): the publisher's rating, its
 * outcome, a forecast probability and the review's URL are not in that type,
 * and test/demo-no-leak.test.ts checks that what reaches findDocuments and
 * runAssess is the same whatever the published verdict.
 *
 * Stages: the quote's names, keywords and figures as the extract stage reads
 * them (the statement as a one-sentence document in the speaker's own voice);
 * classify (type, topic, due date); criteria (the fixed test, before any
 * evidence); evidence (full-text search of the corpus, the claim's own source
 * left out); assess (evidence selection and the two judges). Evidence is kept
 * as for a `quick` report (up to 5 items).
 */

export const DEMO_EVIDENCE_LIMIT = DEPTHS.quick.evidencePerClaim;

/** The subject as the judge sees it: a name and a kind, nothing the data set says of it. */
export function judgeSubject(s: Statement): KnownSubject {
  return {
    subject_id: s.subject_id, name: s.speaker, kind: s.kind, aliases: [], description: null, public_figure: true,
    offices: [], serving_politician: false, urls: [], handles: [], demo: true,
  };
}

/** The claim handed to the evidence and judge stages, built from the statement alone. */
export function pipelineClaim(s: Statement): CandidateClaim {
  const ref = { name: s.speaker, kind: s.kind, aliases: [], urls: [] };
  const doc = { url: s.source_url, title: '', publisher: s.speaker, published: s.date, speakers: [s.speaker], text: s.quote };
  const read = extractClaims(doc, ref);
  const union = <T>(xs: T[][], key: (x: T) => string) => [...new Map(xs.flat().map((x) => [key(x), x])).values()];
  const classified: ClassifiedClaim = {
    quote: s.quote,
    // The wording is the data set's; no source text was fetched to check it against.
    quote_verified: false,
    said_on: s.date,
    source: { url: s.source_url, title: '', outlet: s.speaker, published: s.date },
    speaker: s.speaker,
    attribution: 'own_document',
    entities: union(read.map((c) => c.entities), (e) => e),
    keywords: union(read.map((c) => c.keywords), (k) => k).slice(0, 24),
    figures: union(read.map((c) => c.figures), (f) => f.text),
    ...classifyClaim(s.quote, { said_on: s.date, self_names: [s.speaker] }),
  };
  return { ...classified, resolution_criteria: writeCriteria(classified) };
}

export type JudgeDeps = {
  providers: Pick<Providers, 'search' | 'fetch'>;
  /** The day the verdict is given on (YYYY-MM-DD). */
  today: string;
  findDocuments?: typeof realFindDocuments;
  runAssess?: typeof realRunAssess;
};

/** The Claim object with the machine verdict; said_on is null when the data set gives no date for the claim. */
export async function judgeStatement(s: Statement, deps: JudgeDeps): Promise<JudgedClaim> {
  const claim = pipelineClaim(s);
  const docs = await (deps.findDocuments ?? realFindDocuments)(claim, deps.providers, DEMO_EVIDENCE_LIMIT);
  const { evidence, verdict } = await (deps.runAssess ?? realRunAssess)({ claim, subject: judgeSubject(s), docs, limit: DEMO_EVIDENCE_LIMIT, today: deps.today });
  const judged = toJudgedClaim(s.subject_id, claim, evidence, verdict);
  const saidOn = s.date_basis === 'stated' ? s.date : null;
  return { ...judged, claim_id: s.claim_id, said_on: saidOn, source: { url: s.source_url, title: null, outlet: null, published: saidOn } };
}

/** The real judge over the local corpus, for an import or a re-judging run. */
export function demoJudge(db: Queryable, opts: { today?: string } = {}): DemoJudge {
  const providers = localProviders(db);
  // Claim after claim fetches the same documents: each once (a bounded cache).
  const fetched = new Map<string, Promise<FetchedDocument | null>>();
  const fetch = {
    name: providers.fetch.name,
    fetch(url: string) {
      let hit = fetched.get(url);
      if (!hit) {
        if (fetched.size >= 2000) fetched.delete(fetched.keys().next().value as string);
        hit = providers.fetch.fetch(url);
        fetched.set(url, hit);
      }
      return hit;
    },
  };
  return async (s) => judgeStatement(s, { providers: { search: providers.search, fetch }, today: opts.today ?? new Date().toISOString().slice(0, 10) });
}
