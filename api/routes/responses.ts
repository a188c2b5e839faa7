import { ProblemSchema } from '../../core/schemas/common.ts';
import { ResponseRequestSchema } from '../../core/schemas/requests.ts';
import { ResponseAckSchema } from '../../core/schemas/resources.ts';
import { storeResponse } from '../../core/responses.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function responseRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/responses',
      operationId: 'postResponse',
      summary: 'A subject\'s reply or correction to a claim',
      description: [
        'Stored against the claim (any claim of a stored report, or a demo claim) and shown on it at once: every Claim the service serves (e.g. GET /v1/subjects/{subject_id}/claims) carries it in `responses` as a ClaimResponse `{response_id, name, role, statement, counter_evidence_url, received_at, status}`, oldest first, with status `response received, not yet reviewed` until a person has reviewed it. It stays on the claim when the report is remade.',
        'The answer (ResponseAck) is `{response_id, claim_id, subject_id, status, received_at}`. The reply is shown as sent and not judged by the service; the key that sent it is kept but never shown. `counter_evidence_url` must be an http or https URL (422 otherwise). An unknown `claim_id` (including a check result\'s `chk_…` id) answers 404.',
      ].join('\n'),
      tags: ['responses'],
      auth: true,
      body: ResponseRequestSchema,
      responses: {
        200: { description: 'The reply was stored.', schema: ResponseAckSchema },
        404: { description: 'No such claim.', schema: ProblemSchema },
      },
      handler: async (req, _reply, { body }) => storeResponse(ctx.pool, req.apiKey!.id, body),
    }),
  ];
}
