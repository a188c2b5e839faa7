import { z } from 'zod';
import { ClaimTypeSchema, OutcomeSchema, TopicSchema } from '../method/outcomes.ts';
import { MAX_PAGE_SIZE, SubjectIdSchema, pageQuery, queryBool, queryInt } from './common.ts';

/** Path and query parameters. Every value arrives as a string; limits give 422. */

export const SubjectPathSchema = z.object({ subject_id: SubjectIdSchema });
export const ReportOrJobPathSchema = z.object({
  report_or_job_id: z.string().min(1).max(100).describe('A job id (`job_…`) or a report id (`rep_…`).'),
});
export const ReportPathSchema = z.object({
  report_id: z.string().min(1).max(100).describe('A report id (`rep_…`).'),
});

export const ClaimsQuerySchema = z.object({
  claim_type: ClaimTypeSchema.optional().describe('Only claims of this type.'),
  type: ClaimTypeSchema.optional().describe('Same as `claim_type`; when both are sent they must agree.'),
  topic: TopicSchema.optional().describe('Only claims under this broad topic.'),
  outcome: OutcomeSchema.optional().describe('Only claims with this outcome.'),
  page: queryInt(1, 1, 1_000_000, 'Page number, from 1.'),
  page_size: queryInt(50, 1, MAX_PAGE_SIZE, `Claims per page, 1 to ${MAX_PAGE_SIZE}; 50 by default.`),
}).refine((q) => !q.claim_type || !q.type || q.claim_type === q.type, {
  message: 'claim_type and type name the same filter; send one, or the same value in both.',
  path: ['type'],
});

export const ClaimPathSchema = z.object({
  claim_id: z.string().min(1).max(100).describe('A claim id, as a Claim\'s `claim_id` gives it.'),
});

export const ResponsesQuerySchema = z.object({
  page: queryInt(1, 1, 1_000_000, 'Page number, from 1.'),
  page_size: queryInt(50, 1, MAX_PAGE_SIZE, `Replies per page, 1 to ${MAX_PAGE_SIZE}; 50 by default.`),
});

export const ExportQuerySchema = z.object({
  format: z.enum(['jsonl', 'csv']).default('jsonl').describe('`jsonl` (default) or `csv`.'),
  table: z.enum(['claims', 'scores', 'reviews']).default('claims').describe('For `csv`: which table, `claims` (default), `scores`, or `reviews` (the review record: every review, sign-off and reply decision).'),
  subject_id: SubjectIdSchema.optional().describe('Only this subject.'),
  include_demo: queryBool(false, 'Include demo subjects (left out by default).'),
});

export const SubjectsQuerySchema = z.object({ ...pageQuery('Subjects') });

export const LabelsQuerySchema = z.object({
  subject_id: SubjectIdSchema.optional().describe('Only labels on this subject\'s claims.'),
  format: z.enum(['json', 'csv']).default('json').describe('`json` (default, paged) or `csv` (every label in one download; `page` and `page_size` do not apply).'),
  ...pageQuery('Labels'),
});

export const LabelQueueQuerySchema = z.object({
  subject_id: SubjectIdSchema.describe('The subject whose claims to label (required).'),
  ...pageQuery('Claims'),
});

export const MethodologyQuerySchema = z.object({
  format: z.enum(['json', 'markdown', 'html']).default('json').describe('`json` (default), `markdown` or `html`.'),
});
