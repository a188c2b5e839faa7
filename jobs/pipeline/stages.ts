import type { FetchedDocument, ModelProvider, Providers, PublishedFactCheck } from '../../core/providers/types.ts';
import {
  AssessInputSchema,
  AssessOutputSchema,
  checked,
  ExtractInputSchema,
  ExtractOutputSchema,
  type AssessInput,
  type Assessment,
  type ExtractInput,
  type Stage,
} from '../../core/research/stage.ts';
import type { CandidateClaim, SourceDocument, SubjectRef } from '../../core/research/types.ts';
import { runAssess, runExtract, runFeatures, runSelect } from './cpu-pool.ts';
import type { AssessTask } from './cpu-worker.ts';
import { modelCriteria, modelExtract, modelVerdict } from './model-stages.ts';

/**
 * Each stage run by the model when one is configured, else by the
 * deterministic engine. Both are values of one contract (core/research/stage.ts):
 * the same input and output schemas, so the pipeline's shape does not change
 * with the provider. The deterministic stages run on the thread pool; the
 * model-backed ones run `checked`, their input and output held to the schemas.
 */

type ModelOpts = { ephemeral?: boolean };

/** extract → classify → criteria for one document, by a model. */
export function modelExtractStage(model: ModelProvider, opts: ModelOpts = {}): Stage<ExtractInput, CandidateClaim[]> {
  return checked({
    name: 'extract (model)',
    input: ExtractInputSchema,
    output: ExtractOutputSchema,
    run: async ({ doc, ref }) => {
      const found = await modelExtract(model, doc, ref, opts);
      return Promise.all(
        found.map(async (c) => {
          // Names, words and figures of the quote feed the evidence search and the figures bands.
          const withFeatures = { ...c, ...(await runFeatures(c.quote)) };
          return { ...withFeatures, resolution_criteria: await modelCriteria(model, withFeatures, opts) };
        }),
      );
    },
  });
}

/** evidence → judge for one claim, by the model judges (evidence chosen by the deterministic reader). */
export function modelAssessStage(providers: Pick<Providers, 'secondJudgeModel'> & { model: ModelProvider }, factChecks: readonly PublishedFactCheck[], opts: ModelOpts = {}): Stage<AssessInput, Assessment> {
  return checked({
    name: 'assess (model)',
    input: AssessInputSchema as Stage<AssessInput, Assessment>['input'],
    output: AssessOutputSchema,
    run: async (task) => {
      const evidence = await runSelect({ claim: task.claim, subject: task.subject, docs: task.docs, limit: task.limit });
      const used = factChecks.filter((f) => evidence.some((e) => e.url === f.url));
      const verdict = await modelVerdict({ model: providers.model, secondModel: providers.secondJudgeModel ?? undefined }, task.claim, evidence, used, task.today, opts);
      return { evidence, verdict };
    },
  });
}

/** extract → classify → criteria for one document. */
export async function extractStage(providers: Pick<Providers, 'model'>, doc: SourceDocument, ref: SubjectRef, opts: ModelOpts = {}): Promise<CandidateClaim[]> {
  if (!providers.model) return runExtract({ doc, ref });
  return modelExtractStage(providers.model, opts).run({ doc, ref });
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
export async function assessStage(providers: Pick<Providers, 'model' | 'factCheck' | 'secondJudgeModel'>, task: AssessTask, opts: ModelOpts = {}): Promise<Assessment> {
  // A fact-check service that fails costs the claim that evidence, not the report.
  const factChecks = providers.factCheck ? await providers.factCheck.search(task.claim.quote.slice(0, 500), { limit: 3 }).catch(() => []) : [];
  const docs = [...task.docs, ...factChecks.map(factCheckDocument)];
  if (!providers.model) return runAssess({ ...task, docs });
  return modelAssessStage({ model: providers.model, secondJudgeModel: providers.secondJudgeModel }, factChecks, opts).run({ ...task, docs });
}
