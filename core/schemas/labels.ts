import { z } from 'zod';
import { ClaimTypeSchema, LabelVerdictSchema, OutcomeSchema } from '../method/outcomes.ts';
import { PagingSchema } from './common.ts';
import { EvidenceSchema, REVIEW } from './evidence.ts';

// Reviewers' labels (POST and GET /v1/labels, the label queue): split from
// resources.ts, which re-exports them.

export const LabelSchema = z
  .object({
    claim_id: z.string(),
    subject_id: z.string().describe('The subject whose claim it is.'),
    verdict: LabelVerdictSchema,
    on_time: z.boolean().nullable(),
    note: z.string().nullable(),
    reviewer: z.string().nullable(),
    labelled_at: z.string().describe('ISO 8601 timestamp of the latest verdict (a replacement moves it).'),
  })
  .describe('A verdict recorded with one key on one claim.')
  .meta({ id: 'Label' });

const MachineVerdictSchema = z
  .object({
    outcome: OutcomeSchema,
    rationale: z.string(),
    judges_disagree: z.boolean().describe('True when the machine\'s judges differed.'),
    review_status: REVIEW,
  })
  .describe('The machine\'s verdict on the claim.')
  .meta({ id: 'MachineVerdict' });

export const LabelAckSchema = z
  .object({
    label: LabelSchema,
    replaced: z.boolean().describe('True when this verdict replaced the caller\'s earlier one on the same claim.'),
    machine: MachineVerdictSchema,
    published: z
      .object({
        outcome: OutcomeSchema.nullable().describe('The publisher\'s rating on the service\'s scale; null where it has no place on it.'),
        publisher_rating: z.string().describe('The rating as the publisher published it.'),
        dataset: z.string().describe('The demo set it comes from.'),
      })
      .nullable()
      .describe('For demo subjects: the outcome published by others; null otherwise.'),
  })
  .describe('The label is stored. Now that the caller has given a verdict, the machine\'s (and, for demo claims, the published one) is revealed.')
  .meta({ id: 'LabelAck' });

export const LabelListSchema = z
  .object({
    labels: z.array(LabelSchema).describe('One page of the labels made with the caller\'s key, oldest first.'),
    paging: PagingSchema.describe('Paging over the caller\'s labels (on the one subject, with `subject_id`).'),
  })
  .meta({ id: 'LabelList' });

const SourceSchema = z.object({ url: z.string(), title: z.string().nullable(), outlet: z.string().nullable(), published: z.string().nullable() });

export const LabelQueueItemSchema = z
  .object({
    claim_id: z.string(),
    claim_type: ClaimTypeSchema,
    quote: z.string(),
    said_on: z.string().nullable(),
    source: SourceSchema,
    resolution_criteria: z.string().describe('The fixed test, written before the evidence was looked at: label by it.'),
    evidence: z
      .array(EvidenceSchema)
      .describe('The passages the evidence stage found, in its order (independent sources first, then by how closely they match the claim\'s words): chosen before the judges read them, so they say nothing of the verdict. With no evidence, a claim can hardly be resolved; that much shows.'),
    labelled: z.boolean().describe('Whether the caller has labelled this claim.'),
    label: LabelSchema.nullable().describe('The caller\'s own label, once given; null before.'),
    machine: MachineVerdictSchema.nullable().describe('Withheld (null) until the caller has labelled the claim.'),
  })
  .meta({ id: 'LabelQueueItem' });

export const LabelQueueSchema = z
  .object({
    subject_id: z.string(),
    report_id: z.string().nullable().describe('The report whose claims are listed; null when the subject has only demo claims, or none.'),
    claims: z.array(LabelQueueItemSchema).describe('One page of the subject\'s researched claims: those of its latest report, then its demo claims.'),
    labelled: z.number().int().describe('How many of the queue\'s claims (on every page) the caller has labelled.'),
    paging: PagingSchema.describe('Paging over the queue\'s claims.'),
  })
  .meta({ id: 'LabelQueue' });

export type Label = z.infer<typeof LabelSchema>;
export type LabelQueueItem = z.infer<typeof LabelQueueItemSchema>;
