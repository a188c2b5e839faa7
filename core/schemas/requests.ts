import { z } from 'zod';
import { LabelVerdictSchema } from '../method/outcomes.ts';
import { IsoDateSchema, SubjectKindSchema, text } from './common.ts';
import { RequestTopicSchema } from './topic.ts';

/**
 * Request bodies, exactly as SPEC.md lists them. Unknown fields are ignored
 * (dropped), as most JSON APIs do; every listed limit is enforced with 422.
 * Where the spec makes no field required but a request with none of them
 * means nothing, a refinement says which to send.
 */

/**
 * The refinements below as JSON Schema (`anyOf` in the document): at least
 * one of these fields is sent and not empty. Kept beside the refinements they
 * restate; test/openapi-property.test.ts holds the two to each other.
 */
function saysWho(strings: string[], lists: string[]) {
  return [
    ...strings.map((f) => ({ required: [f], properties: { [f]: { type: 'string', minLength: 1 } } })),
    ...lists.map((f) => ({ required: [f], properties: { [f]: { type: 'array', minItems: 1 } } })),
  ];
}

const urls = z.array(z.string().max(2000).describe('A URL.')).max(20);
const handles = z.array(z.string().max(300).describe('A handle, such as @name.')).max(20);

export const ReportRequestSchema = z
  .object({
    subject_id: text(100, 'Subject identifier from resolve or an earlier report. Takes precedence over `name`.').nullish(),
    name: text(300, 'Name of the person, organisation or outlet.').nullish(),
    urls: urls.describe('URLs that identify the subject or carry its statements; at most 20.').optional(),
    handles: handles.describe('Social media handles of the subject; at most 20.').optional(),
    kind: SubjectKindSchema.nullish(),
    topic: RequestTopicSchema.nullish(),
    depth: z.enum(['quick', 'standard']).default('quick').describe('`quick` (default) researches fewer documents; `standard` researches more and takes longer.'),
    consent_ref: text(300, 'Reference to the consent of a person who is not a public figure; required for such a person.').nullish(),
    refresh: z.boolean().default(false).describe('True starts a new job even when a fresh report is stored.'),
  })
  .refine((b) => b.subject_id || b.name || (b.urls && b.urls.length) || (b.handles && b.handles.length), {
    message: 'Send subject_id, or name (with urls or handles to tell namesakes apart).',
    path: [],
  })
  .describe('Ask for a subject\'s report. No field is required, but one of subject_id, name, urls or handles must say who.')
  .meta({ id: 'ReportRequest', anyOf: saysWho(['subject_id', 'name'], ['urls', 'handles']) });

export const ResolveRequestSchema = z
  .object({
    name: text(300, 'Name of a person, organisation or outlet.').nullish(),
    urls: urls.describe('URLs that identify the subject; at most 20.').optional(),
    handles: handles.describe('Handles of the subject; at most 20.').optional(),
    kind: SubjectKindSchema.nullish(),
    text: text(50_000, 'A block of text; the people and organisations it names are returned. The text is not stored.').nullish(),
  })
  .refine((b) => b.name || b.text || (b.urls && b.urls.length) || (b.handles && b.handles.length), {
    message: 'Send name, urls, handles or text.',
    path: [],
  })
  .describe('Turn a name with identifiers, or a block of text, into candidate subjects. No field is required, but one of name, text, urls or handles must be sent.')
  .meta({ id: 'ResolveRequest', anyOf: saysWho(['name', 'text'], ['urls', 'handles']) });

export const CheckClaimSchema = z
  .object({
    text: z.string().min(1).max(5000).describe('The claim, at most 5,000 characters.'),
    source_url: text(2000, 'Where the claim was made, at most 2,000 characters.').nullish(),
  })
  .meta({ id: 'CheckClaim' });

export const CheckRequestSchema = z
  .object({
    text: text(50_000, 'A page or draft; checkable claims are taken from it. At most 50,000 characters.').nullish(),
    claims: z.array(CheckClaimSchema).max(50).describe('Claims to check, at most 50; an alternative to `text`.').nullish(),
    author: text(300, 'Who wrote the text.').nullish(),
    said_on: IsoDateSchema.describe('When the text was said or published, YYYY-MM-DD; today (UTC) by default.').nullish(),
  })
  .refine((b) => (b.text && b.text.trim().length > 0) || (b.claims && b.claims.length > 0), {
    message: 'Send text or claims.',
    path: [],
  })
  .describe('Claims, or a block of text, to check; outcomes come back per claim, with no score. No field is required, but `text` (not blank) or `claims` (at least one) must be sent.')
  .meta({
    id: 'CheckRequest',
    anyOf: [
      { required: ['text'], properties: { text: { type: 'string', pattern: '\\S' } } },
      { required: ['claims'], properties: { claims: { type: 'array', minItems: 1 } } },
    ],
  });

/** An http(s) link: anything else (javascript:, data:, file:, a bare word) is refused with 422. */
const httpUrl = (max: number, description: string) =>
  z
    .string()
    .max(max)
    .regex(/^https?:\/\/[^\s/?#]+/i, 'must be an http or https URL')
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an http or https URL')
    .describe(description)
    // The refinement as JSON Schema can say it: an absolute URI (an http or https one, by the pattern).
    .meta({ format: 'uri' });

export const ResponseRequestSchema = z
  .object({
    claim_id: z.string().min(1).max(100).describe('The claim replied to.'),
    name: z.string().min(1).max(300).describe('Who sends the reply.'),
    role: text(300, 'The sender\'s role, free text (e.g. "press officer of the subject").').nullish(),
    statement: z.string().min(1).max(10_000).describe('The reply or correction, at most 10,000 characters.'),
    counter_evidence_url: httpUrl(2000, 'A link to counter-evidence: an http or https URL of at most 2,000 characters.').nullish(),
  })
  .describe('A reply or correction from a subject to one claim.')
  .meta({ id: 'ResponseRequest' });

export const LabelRequestSchema = z
  .object({
    claim_id: z.string().min(1).max(100).describe('The claim labelled.'),
    verdict: LabelVerdictSchema,
    on_time: z.boolean().nullish().describe('For promises: whether it was kept on time.'),
    note: text(2000, 'The reviewer\'s note, at most 2,000 characters.').nullish(),
    reviewer: text(200, 'Name or handle of the reviewer, at most 200 characters.').nullish(),
  })
  .describe('A reviewer\'s own verdict on one claim.')
  .meta({ id: 'LabelRequest' });

export type ReportRequest = z.infer<typeof ReportRequestSchema>;
export type ResolveRequest = z.infer<typeof ResolveRequestSchema>;
export type CheckRequest = z.infer<typeof CheckRequestSchema>;
export type ResponseRequest = z.infer<typeof ResponseRequestSchema>;
export type LabelRequest = z.infer<typeof LabelRequestSchema>;
