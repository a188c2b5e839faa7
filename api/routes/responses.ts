import { ProblemSchema } from '../../core/schemas/common.ts';
import { ClaimPathSchema, ResponsesQuerySchema } from '../../core/schemas/queries.ts';
import { ResponseRequestSchema } from '../../core/schemas/requests.ts';
import { ClaimResponsesPageSchema, ResponseAckSchema } from '../../core/schemas/resources.ts';
import { RESPONSES_INLINE, responsesPage, storeResponse } from '../../core/responses.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function responseRoutes(ctx: AppContext) {
  const limits = ctx.config.responseLimits;
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/responses',
      operationId: 'postResponse',
      summary: 'A subject\'s reply or correction to a claim',
      description: [
        `Stored against the claim (any claim of a stored report, or a demo claim) and shown on it at once: every Claim the service serves (e.g. GET /v1/subjects/{subject_id}/claims) carries its ${RESPONSES_INLINE} newest replies in \`responses\`, newest first, as ClaimResponse \`{response_id, name, role, statement, counter_evidence_url, received_at, status}\` with status \`response received, not yet reviewed\` until a person has reviewed it, beside \`responses_total\` (how many it has) and \`responses_url\` (GET /v1/claims/{claim_id}/responses: all of them, a page at a time). A reply stays on the claim when the report is remade.`,
        'The answer (ResponseAck) is `{response_id, claim_id, subject_id, status, received_at}`. The reply is shown as sent and not judged by the service; the key that sent it is kept but never shown. `counter_evidence_url` must be an http or https URL (422 otherwise). An unknown `claim_id` (including a check result\'s `chk_…` id) answers 404.',
        `Limits: a claim takes at most ${limits.perClaim} replies in all (409 \`claim-replies-full\` past it); a key may send at most ${limits.perKeyPerClaimPerDay} replies to one claim and ${limits.perKeyPerDay} in all per UTC day (429 \`reply-limit\`, with \`Retry-After\` until 00:00 UTC). The counts are exact: requests racing at a limit never pass it.`,
      ].join('\n'),
      tags: ['responses'],
      auth: true,
      scope: 'respond',
      body: ResponseRequestSchema,
      responses: {
        200: { description: 'The reply was stored.', schema: ResponseAckSchema },
        404: { description: 'No such claim.', schema: ProblemSchema },
        409: { description: `The claim holds ${limits.perClaim} replies, the most one claim takes (\`/problems/claim-replies-full\`).`, schema: ProblemSchema },
        429: { description: `Or this key has sent ${limits.perKeyPerClaimPerDay} replies to this claim, or ${limits.perKeyPerDay} in all, today (\`/problems/reply-limit\`): wait \`Retry-After\` seconds (until 00:00 UTC).` },
      },
      handler: async (req, _reply, { body }) => storeResponse(ctx.pool, req.apiKey!.id, body, limits),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/claims/:claim_id/responses',
      operationId: 'listClaimResponses',
      summary: 'Every reply to a claim, newest first, a page at a time',
      description: `All the replies stored against the claim (a Claim carries only its ${RESPONSES_INLINE} newest, with \`responses_total\` and this path as \`responses_url\`), newest first, paged by \`page\` (from 1) and \`page_size\` (1 to 200, default 50), with \`paging: {page, page_size, total, total_pages}\`; a page past the last is empty, not an error. A claim with no reply answers an empty list; an unknown claim 404.`,
      tags: ['responses'],
      auth: true,
      params: ClaimPathSchema,
      query: ResponsesQuerySchema,
      responses: {
        200: { description: 'A page of the claim\'s replies.', schema: ClaimResponsesPageSchema },
        404: { description: 'No such claim.', schema: ProblemSchema },
      },
      handler: async (_req, _reply, { params, query }) => responsesPage(ctx.pool, params.claim_id, query.page, query.page_size),
    }),
  ];
}
