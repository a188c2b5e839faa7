import type { FetchedDocument, Providers, PublishedFactCheck } from '../../core/providers/types.ts';
import { runAssess, runExtract, runFeatures, runSelect } from './cpu-pool.ts';
import type { AssessTask, Assessment } from './cpu-worker.ts';
import { modelCriteria, modelExtract, modelVerdict } from './model-stages.ts';
import type { CandidateClaim, SourceDocument, SubjectRef } from './types.ts';

/**
 * Each stage run by the model when one is configured, else by the
 * deterministic engine: the same inputs and outputs either way, so the
 * pipeline's shape does not change with the provider.
 */

/** extract → classify → criteria for one document. */
export async function extractStage(providers: Pick<Providers, 'model'>, doc: SourceDocument, ref: SubjectRef, opts: { ephemeral?: boolean } = {}): Promise<CandidateClaim[]> {
  const model = providers.model;
  if (!model) return runExtract({ doc, ref });
  const found = await modelExtract(model, doc, ref, opts);
  return Promise.all(
    found.map(async (c) => {
      // Names, words and figures of the quote feed the evidence search and the figures bands.
      const withFeatures = { ...c, ...(await runFeatures(c.quote)) };
      return { ...withFeatures, resolution_criteria: await modelCriteria(model, withFeatures, opts) };
    }),
  );
}

/**
 * A published fact-check read as a document: its text is the ClaimReview
 * record as published (the claim as reviewed, the review's headline, the
 * rating), so the evidence stage weighs its relevance and independence like
 * any page's, and quotes it verbatim from that record.
 */
export function factCheckDocument(f: PublishedFactCheck): FetchedDocument {
  const text = [`${f.claim_text.replace(/[.\s]+$/, '')}.`, f.title ? `${f.title.replace(/[.\s]+$/, '')}.` : '', `Rating: ${f.rating}.`].filter(Boolean).join(' ');
  return { url: f.url, title: f.title ?? f.claim_text, publisher: f.publisher, published: f.reviewed_on, speakers: [], text };
}

/** evidence → judge for one claim. */
export async function assessStage(providers: Pick<Providers, 'model' | 'factCheck' | 'secondJudgeModel'>, task: AssessTask, opts: { ephemeral?: boolean } = {}): Promise<Assessment> {
  const model = providers.model;
  // A fact-check service that fails costs the claim that evidence, not the report.
  const factChecks = providers.factCheck ? await providers.factCheck.search(task.claim.quote.slice(0, 500), { limit: 3 }).catch(() => []) : [];
  const docs = [...task.docs, ...factChecks.map(factCheckDocument)];
  if (!model) return runAssess({ ...task, docs });
  const evidence = await runSelect({ claim: task.claim, subject: task.subject, docs, limit: task.limit });
  const used = factChecks.filter((f) => evidence.some((e) => e.url === f.url));
  const verdict = await modelVerdict({ model, secondModel: providers.secondJudgeModel ?? undefined }, task.claim, evidence, used, task.today, opts);
  return { evidence, verdict };
}
