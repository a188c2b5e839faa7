import { z } from 'zod';
import type { FetchedDocument, KnownSubject } from '../providers/types.ts';
import { candidateClaims } from './criteria.ts';
import { selectEvidence } from './evidence.ts';
import { claimActors, referredTo } from './grounding.ts';
import { judgeClaim } from './judge.ts';
import {
  CandidateClaimSchema,
  EvidenceItemSchema,
  IsoDateSchema,
  SourceDocumentSchema,
  SubjectKindSchema,
  SubjectRefSchema,
  VerdictSchema,
  type CandidateClaim,
  type EvidenceItem,
  type SourceDocument,
  type SubjectRef,
  type Verdict,
} from './types.ts';

/**
 * One contract for every research stage: a name, a zod schema for its input and
 * one for its output, and a function from the one to the other that calls no
 * other stage. The deterministic stages below and the model-backed ones
 * (jobs/pipeline/model-stages.ts) are values of the same type, so the pipeline
 * (jobs/pipeline/stages.ts) swaps one for the other by configuration, and
 * `npm run eval` measures either the same way.
 *
 * `checked` runs a stage with both schemas enforced. The model-backed stages
 * always run checked (a model's answer is untrusted input); the deterministic
 * ones run bare on the hot path, and their tests run them checked
 * (core/research/stage.test.ts), so a change that breaks the contract fails
 * there rather than costing every report the validation.
 */
export type Stage<I, O> = {
  readonly name: string;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
  run(input: I): O | Promise<O>;
};

/** A deterministic stage: the same contract, answered synchronously (so it can run on a worker thread without a promise). */
export type PureStage<I, O> = Omit<Stage<I, O>, 'run'> & { run(input: I): O };

/** A stage's input or output that does not meet its schema: a defect of the stage (or of a model's answer), never of the caller's data. */
export class StageContractError extends Error {
  readonly stage: string;
  readonly side: 'input' | 'output';
  readonly issues: z.core.$ZodIssue[];
  constructor(stage: string, side: 'input' | 'output', issues: z.core.$ZodIssue[]) {
    super(`stage ${stage}: ${side} does not meet its schema (${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).slice(0, 3).join('; ')})`);
    this.name = 'StageContractError';
    this.stage = stage;
    this.side = side;
    this.issues = issues;
  }
}

export function checked<I, O>(stage: Stage<I, O> | PureStage<I, O>): Omit<Stage<I, O>, 'run'> & { run(input: I): Promise<O> } {
  return {
    ...stage,
    async run(input: I): Promise<O> {
      const i = stage.input.safeParse(input);
      if (!i.success) throw new StageContractError(stage.name, 'input', i.error.issues);
      const o = stage.output.safeParse(await stage.run(i.data));
      if (!o.success) throw new StageContractError(stage.name, 'output', o.error.issues);
      return o.data;
    },
  };
}

export const FetchedDocumentSchema = z
  .object({
    url: z.string().min(1).describe('Where the document lives.'),
    title: z.string().describe('Its title.'),
    publisher: z.string().describe('Who published it.'),
    // As the fetcher read it: a page's own date may come in any form, and evidence without a usable date is weighed, not refused.
    published: z.string().nullable().describe('Its publication date, when known.'),
    speakers: z.array(z.string()).describe('Subjects whose statements it carries.'),
    text: z.string().describe('Its text.'),
    sample: z.boolean().optional().describe('From a pack of invented sample data.'),
  })
  .describe('A document fetched as possible evidence.');

export const KnownSubjectSchema = z
  .object({
    subject_id: z.string().min(1),
    name: z.string().min(1),
    kind: SubjectKindSchema,
    aliases: z.array(z.string()),
    description: z.string().nullable(),
    public_figure: z.boolean(),
    offices: z.array(z.object({ title: z.string(), from: z.string().nullish(), to: z.string().nullish() })),
    serving_politician: z.boolean(),
    urls: z.array(z.string()),
    handles: z.array(z.string()),
    demo: z.boolean(),
    sample: z.boolean().optional(),
  })
  .describe('The subject being researched, as stored.');

export const ExtractInputSchema = z.object({ doc: SourceDocumentSchema, ref: SubjectRefSchema }).describe('A document the subject speaks in, and the subject.');
export const ExtractOutputSchema = z.array(CandidateClaimSchema).describe('The subject\'s checkable claims in it, typed, each with its fixed test.');
export const AssessInputSchema = z
  .object({
    claim: CandidateClaimSchema,
    subject: KnownSubjectSchema,
    docs: z.array(FetchedDocumentSchema).describe('The documents the search found for the claim.'),
    limit: z.number().int().min(0).describe('Most evidence items to keep.'),
    today: IsoDateSchema.describe('The date the claim is judged on.'),
  })
  .describe('A claim and the documents found for it.');
export const AssessOutputSchema = z.object({ evidence: z.array(EvidenceItemSchema), verdict: VerdictSchema }).describe('The evidence read and the verdict.');
export const SelectOutputSchema = z.array(EvidenceItemSchema);

export type ExtractInput = { doc: SourceDocument; ref: SubjectRef };
export type AssessInput = { claim: CandidateClaim; subject: KnownSubject; docs: FetchedDocument[]; limit: number; today: string };
export type Assessment = { evidence: EvidenceItem[]; verdict: Verdict };

/** extract → classify → criteria for one document (the deterministic engine). */
export const offlineExtract: PureStage<ExtractInput, CandidateClaim[]> = {
  name: 'extract',
  input: ExtractInputSchema,
  output: ExtractOutputSchema,
  run: ({ doc, ref }) => candidateClaims(doc, ref),
};

/** evidence → judge for one claim (the deterministic engine). */
export const offlineAssess: PureStage<AssessInput, Assessment> = {
  name: 'assess',
  input: AssessInputSchema as z.ZodType<AssessInput>,
  output: AssessOutputSchema,
  run: ({ claim, subject, docs, limit, today }) => {
    const evidence = selectEvidence(claim, subject, docs, limit);
    return { evidence, verdict: judgeClaim(claim, evidence, today, claimActors(claim.quote, subject, referredTo(claim))) };
  },
};

/** The evidence half alone: what the model judges read. */
export const offlineSelect: PureStage<Omit<AssessInput, 'today'>, EvidenceItem[]> = {
  name: 'select',
  input: AssessInputSchema.omit({ today: true }) as z.ZodType<Omit<AssessInput, 'today'>>,
  output: SelectOutputSchema,
  run: ({ claim, subject, docs, limit }) => selectEvidence(claim, subject, docs, limit),
};
