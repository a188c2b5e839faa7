import { z } from 'zod';

/** Strings sent by callers: length limits are the spec's. */
export const text = (max: number, description: string) => z.string().max(max).describe(description);

export const SubjectKindSchema = z
  .enum(['person', 'organisation', 'outlet'])
  .describe('What the subject is: a person, an organisation or an outlet.')
  .meta({ id: 'SubjectKind' });

export const SubjectIdSchema = z.string().min(1).max(100).describe('Subject identifier (starts with `sub_`).');

export const JobStatusSchema = z
  .enum(['queued', 'running', 'complete', 'insufficient', 'refused', 'failed'])
  .describe(
    'Job status. A new job is `queued`; a worker moves it to `running`; it ends in one of the final statuses `complete`, `insufficient` (too few resolved claims), `refused` (the rules forbid the report) or `failed` (an error; the reason says what).',
  )
  .meta({ id: 'JobStatus' });

export const JobAcceptedSchema = z
  .object({
    job_id: z.string().startsWith('job_').describe('Job identifier, starting with `job_`.'),
    status: z.enum(['queued', 'running']).describe('`queued` for a newly started job; an open job that was joined may already be `running`.'),
    poll: z.string().describe('Path to poll for the outcome: `/v1/reports/<job_id>`.'),
  })
  .describe('A job was started; poll its path until it reaches a final status.')
  .meta({ id: 'JobAccepted' });

export const ProblemSchema = z
  .object({
    type: z.string().describe('URI reference naming the problem type, `/problems/<code>`: a public page at that path on this service says what it means and what to do.'),
    title: z.string().describe('Short summary of the problem type (the same for every problem of that type).'),
    status: z.number().int().describe('HTTP status code.'),
    detail: z.string().describe('What went wrong and what to do next.'),
    instance: z.string().optional().describe('The request path the problem occurred on.'),
    retry_after: z.number().int().optional().describe('Seconds to wait before retrying (429 and some 503).'),
    candidates: z.array(z.unknown()).optional().describe('On 409: the subjects the name matches; resend with one `subject_id`.'),
    required_scope: z.string().optional().describe('On 403 `insufficient-scope`: the scope the route needs.'),
    key_scopes: z.array(z.string()).optional().describe('On 403 `insufficient-scope`: the scopes the key has.'),
    missing: z.array(z.string()).optional().describe('On 409 `review-incomplete`: the claim ids that still need a review before the report can be signed off.'),
    current_version: z.string().optional().describe('On 409 `claim-changed` and `review-conflict` for a claim: the claim\'s current `review.version`.'),
  })
  .describe('RFC 9457 problem details, served as `application/problem+json`, for every error except 422.')
  .meta({ id: 'Problem' });

export const ValidationItemSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])).describe('Where the error is: `body`, `query`, `path` or `header`, then the field path.'),
    msg: z.string().describe('What is wrong, in words.'),
    type: z.string().describe('Machine-readable error type (e.g. `missing`, `string_too_long`, `json_invalid`).'),
    input: z.unknown().optional().describe('The offending input, where there is one.'),
    ctx: z.record(z.string(), z.unknown()).optional().describe('Context of the error, such as the limit that was exceeded.'),
  })
  .meta({ id: 'ValidationErrorItem' });

export const ValidationErrorSchema = z
  .object({ detail: z.array(ValidationItemSchema).describe('One item per problem found.') })
  .describe('Body of every 422 response: the request body or parameters failed validation.')
  .meta({ id: 'ValidationError' });

export const PagingSchema = z
  .object({
    page: z.number().int().min(1).describe('This page, from 1.'),
    page_size: z.number().int().min(1).describe('Items per page asked for.'),
    total: z.number().int().min(0).describe('Items across all pages with the filters applied.'),
    total_pages: z.number().int().min(0).describe('Number of pages with this page size.'),
  })
  .describe('Where a page stands in the whole list.')
  .meta({ id: 'Paging' });

export const MAX_PAGE_SIZE = 200;

/** Where a page stands, for a list of `total` items cut into pages of `pageSize` (PagingSchema). */
export function pagingOf(page: number, pageSize: number, total: number): z.infer<typeof PagingSchema> {
  return { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) };
}

/** Replies a Claim carries in `responses`: its newest, newest first; the rest are read a page at a time (core/responses.ts). */
export const RESPONSES_INLINE = 5;

/**
 * Query-string integers: the raw value is a string; a non-numeric one is left
 * as it is so that validation names it (`int_parsing`) instead of coercing it.
 */
export const queryInt = (def: number, min: number, max: number, description: string) =>
  z
    .preprocess((v) => (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max))
    .default(def)
    .describe(description)
    // The preprocess step hides the default from the OpenAPI generator; state it.
    .meta({ override: { default: def } });

/**
 * The paging parameters every list takes, the same everywhere: `page` from 1,
 * `page_size` 1 to MAX_PAGE_SIZE, 50 by default. A page past the last is
 * empty, not an error. `what` names the items (`Subjects`, `Labels`).
 */
export const pageQuery = (what: string) => ({
  page: queryInt(1, 1, 1_000_000, 'Page number, from 1. A page past the last is empty.'),
  page_size: queryInt(50, 1, MAX_PAGE_SIZE, `${what} per page, 1 to ${MAX_PAGE_SIZE}; 50 by default.`),
});

export const queryBool = (def: boolean, description: string) =>
  z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      const s = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      return v;
    }, z.boolean())
    .default(def)
    .describe(description)
    .meta({ override: { default: def, type: 'boolean' } });

export const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a real calendar date')
  .describe('A date, YYYY-MM-DD.')
  // JSON Schema's `date` format is RFC 3339's full-date: a real calendar day, as the refinement asks.
  .meta({ format: 'date' });
