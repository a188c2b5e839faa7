import { z } from 'zod';

/** The tools' input and output schemas (MCP tool descriptions carry them as JSON Schema). */

const Interval = z.array(z.number()).describe('The 80% range: 10th and 90th percentiles.');
const Entry = z.object({
  score: z.number(),
  interval_80: Interval,
  n_resolved: z.number().int(),
  confidence: z.object({ level: z.string(), reasons: z.string() }),
});

export const LookupInput = {
  name: z.string().min(1).max(300).describe('Name of the person, organisation or outlet.'),
  topic: z.string().max(200).optional().describe('A broad topic (e.g. health, economy) to score only claims under it.'),
  subject_id: z.string().max(100).optional().describe('The subject id, when a name matched several subjects.'),
};

export const LookupOutput = {
  status: z.enum(['complete', 'pending', 'ambiguous']).describe('complete: the report is here; pending: it is being made, call again later; ambiguous: pick one of the candidates.'),
  review_status: z.string().optional().describe('Show it with any score: machine-generated, unreviewed.'),
  subject: z.object({ subject_id: z.string(), name: z.string(), kind: z.string() }).optional(),
  overall: Entry.optional().describe('The headline score.'),
  scores: z.object({ factual: Entry.optional(), promise: Entry.optional(), guidance: Entry.optional(), prediction: Entry.optional() }).optional(),
  featured_claims: z.array(z.record(z.string(), z.unknown())).optional(),
  caveats: z.array(z.record(z.string(), z.unknown())).optional(),
  report_id: z.string().optional(),
  generated_at: z.string().optional(),
  stale: z.boolean().optional(),
  method_version: z.string().optional(),
  job_id: z.string().optional().describe('While pending: the job making the report.'),
  candidates: z.array(z.object({ subject_id: z.string(), name: z.string(), kind: z.string(), description: z.string().nullable() })).optional(),
  message: z.string().describe('What this answer means and what to do next.'),
};

export const CheckInput = {
  text: z.string().min(1).max(50_000).describe('A text whose checkable claims to check.'),
  job_id: z.string().max(100).optional().describe('Collect the outcome of a check started earlier (its job_id), instead of starting one.'),
};

export const CheckOutput = {
  status: z.enum(['complete', 'pending']),
  job_id: z.string(),
  results: z.array(z.record(z.string(), z.unknown())).optional().describe('Per-claim outcomes with evidence and the fixed test; there is no overall score.'),
  review_status: z.string().optional(),
  message: z.string(),
};

export const EvidenceInput = {
  subject_id: z.string().min(1).max(100).describe('The subject the claim belongs to.'),
  claim_id: z.string().min(1).max(100).describe('The claim.'),
};

export const EvidenceOutput = {
  claim: z.record(z.string(), z.unknown()).describe('The claim with its quote, source, fixed test, outcome, rationale, evidence and any replies.'),
  review_status: z.string(),
  message: z.string(),
};
