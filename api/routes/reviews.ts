import type { FastifyRequest } from 'fastify';
import { ProblemSchema } from '../../core/schemas/common.ts';
import { ClaimPathSchema, ReportPathSchema } from '../../core/schemas/queries.ts';
import {
  ClaimReviewAckSchema, ClaimReviewRequestSchema, ReplyReviewAckSchema, ReplyReviewRequestSchema, ReportReviewStateSchema, ResponsePathSchema,
  ReviewQueueQuerySchema, ReviewQueueSchema, SignOffAckSchema, SignOffRequestSchema,
} from '../../core/schemas/reviews.ts';
import { REPLY_STATUSES } from '../../core/schemas/review-state.ts';
import { reviewClaim } from '../../core/reviews/claims.ts';
import { reviewQueue } from '../../core/reviews/queue.ts';
import { decideReply } from '../../core/reviews/replies.ts';
import { reportReviewState, signOffReport } from '../../core/reviews/reports.ts';
import { REVIEW_WEIGHT_POINTS } from '../../core/reviews/weights.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

/**
 * Editorial review (issue #18): every route here needs a key with the
 * `review` scope. They parse, call core/reviews/, and after a change:
 * - wait until this process's caches have heard of it (the stored report
 *   a reviewer reads next, here, already shows the review: read-your-writes);
 * - ask for a site build, so the published pages follow (where this process
 *   runs site builds; elsewhere the next build publishes it).
 */
export function reviewRoutes(ctx: AppContext) {
  const publish = async (req: FastifyRequest, reason: string) => {
    await req.server.changes.settled().catch(() => {});
    void ctx.requestSiteBuild?.(reason).catch(() => {});
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/reviews/queue',
      operationId: 'reviewQueue',
      summary: 'Claims waiting for a reviewer, most consequential first',
      description: [
        'The claims behind each subject\'s published headline (its latest report on its whole record; demo subjects are not published) whose current version no person has reviewed, or with replies waiting for a decision. `subject_id` narrows it to one subject.',
        `Most consequential first: featured claims, then by \`weight\` (how far the headline score moves, in points, when the claim is left out), then by \`replies_waiting\`. \`required\` marks the claims a sign-off of the report needs reviewed: every featured claim and every claim with a weight over ${REVIEW_WEIGHT_POINTS} points.`,
        'Each item carries the whole Claim (its `review.version` is what a review must send back). Paged like every list: `page` (from 1) and `page_size` (1 to 200, default 50), with `paging: {page, page_size, total, total_pages}`.',
      ].join('\n'),
      tags: ['reviews'],
      auth: true,
      scope: 'review',
      query: ReviewQueueQuerySchema,
      responses: { 200: { description: 'One page of the claims waiting.', schema: ReviewQueueSchema } },
      handler: async (_req, _reply, { query }) => reviewQueue(ctx.pool, query.subject_id, query.page, query.page_size),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/claims/:claim_id/review',
      operationId: 'reviewClaim',
      summary: 'Confirm or correct the machine\'s outcome on a claim',
      description: [
        'Reviews the claim\'s current version (in the newest report that carries it): `outcome` the machine\'s to confirm it, or any other outcome of the scale to correct it, with a `rationale` and the `reviewer`\'s name, both published.',
        'The claim then carries `review_status` `reviewed`, `outcome` and `rationale` as the reviewer gave them, the machine\'s verdict in `machine_verdict`, and `review` {version, decision (`confirmed` or `corrected`), reviewer, reviewed_at, rationale, revision, lapsed}. The report\'s `review.claims_reviewed` counts it at once; the report itself keeps the label (and the machine\'s score) until it is signed off.',
        'The review holds for this version of the claim: a report remade with its quote, fixed test and evidence unchanged shows it reviewed still; a remade report that changes any of them shows it unreviewed, with `review.lapsed` saying which part changed and which review lapsed (and the record says so too).',
        '`version` must be the claim\'s `review.version` as read: 409 `claim-changed` when the claim changed since, 409 `review-conflict` when someone reviewed it since (two reviewers at once: one review is kept, the other is refused). Sending the current version of a reviewed claim replaces its review (`revision` counts them; the record keeps each). A review that changes an outcome a signed-off report\'s score was made with withdraws that sign-off (`signoffs_withdrawn`).',
        'An outcome off the scale is 422; an unknown claim (or a demo claim, or a check result\'s `chk_…` id) 404.',
      ].join('\n'),
      tags: ['reviews'],
      auth: true,
      scope: 'review',
      params: ClaimPathSchema,
      body: ClaimReviewRequestSchema,
      responses: {
        200: { description: 'The review is recorded.', schema: ClaimReviewAckSchema },
        404: { description: 'No such claim in a stored report.', schema: ProblemSchema },
        409: { description: 'The claim changed since the version sent (`/problems/claim-changed`), or was reviewed since (`/problems/review-conflict`); `current_version` is its version now.', schema: ProblemSchema },
      },
      handler: async (req, _reply, { params, body }) => {
        const done = await reviewClaim(ctx.pool, req.apiKey!.id, params.claim_id, body);
        await publish(req, `review of claim ${params.claim_id}`);
        return done;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:report_id/review',
      operationId: 'getReportReview',
      summary: 'Where a report stands in review, and what its sign-off needs',
      description: `The claims a sign-off needs reviewed (\`required\`: every featured claim, as the machine made the report or as it would be with the reviews so far, and every claim that moves the headline by more than ${REVIEW_WEIGHT_POINTS} points when left out), those still \`missing\`, whether it \`can_sign_off\` (and if not, \`blocked_by\`), the machine's headline and the headline the reviewed outcomes give (\`reviewed_score\`: what a sign-off would publish). Unknown report: 404.`,
      tags: ['reviews'],
      auth: true,
      scope: 'review',
      params: ReportPathSchema,
      responses: {
        200: { description: 'The report\'s review state.', schema: ReportReviewStateSchema },
        404: { description: 'No such report.', schema: ProblemSchema },
      },
      handler: async (_req, _reply, { params }) => reportReviewState(ctx.pool, params.report_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/reports/:report_id/review',
      operationId: 'signOffReport',
      summary: 'Sign a report off',
      description: [
        `Once every claim its sign-off needs is reviewed (GET /v1/reports/{report_id}/review), a reviewer signs the report off: its \`score\`, \`scores\`, \`featured_claims\` and \`caveats\` are recomputed by the method with every reviewed outcome in place of the machine's, \`review_status\` becomes \`reviewed\`, and \`review\` names who and when, with the machine's headline kept as \`review.machine_score\`. Claims no one reviewed keep their label. Everywhere the report is served (REST, pages, export, MCP) shows it at once.`,
        'Refused with 409 `review-incomplete` (listing `missing`) while a needed claim is unreviewed, when the reviewed outcomes leave too few resolved claims for a score, or when the report was made with an earlier method; with 409 `review-conflict` when it is signed off already (also the answer to the second of two reviewers signing at once). A later review that changes an outcome the signed score was made with withdraws the sign-off (the record says so), and the report can be signed off again. Unknown report: 404.',
      ].join('\n'),
      tags: ['reviews'],
      auth: true,
      scope: 'review',
      params: ReportPathSchema,
      body: SignOffRequestSchema,
      responses: {
        200: { description: 'The report is signed off.', schema: SignOffAckSchema },
        404: { description: 'No such report.', schema: ProblemSchema },
        409: { description: 'Not yet (`/problems/review-incomplete`, with `missing`), or already signed off (`/problems/review-conflict`).', schema: ProblemSchema },
      },
      handler: async (req, _reply, { params, body }) => {
        const done = await signOffReport(ctx.pool, req.apiKey!.id, params.report_id, body);
        await publish(req, `sign-off of report ${params.report_id}`);
        return done;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/responses/:response_id/review',
      operationId: 'reviewReply',
      summary: 'Accept a subject\'s reply, or not, with a published note',
      description: `The reply's \`status\` becomes \`${REPLY_STATUSES[1]}\` or \`${REPLY_STATUSES[2]}\` (from \`${REPLY_STATUSES[0]}\`), and its \`review\` {decision, note, reviewer, reviewed_at} is shown with it on the claim, the pages and the export's record. Accepting a reply does not change the claim's outcome by itself: correct the claim with POST /v1/claims/{claim_id}/review (the note says what was corrected). A second decision replaces the first; the record keeps both. Unknown reply: 404.`,
      tags: ['reviews'],
      auth: true,
      scope: 'review',
      params: ResponsePathSchema,
      body: ReplyReviewRequestSchema,
      responses: {
        200: { description: 'The decision is recorded.', schema: ReplyReviewAckSchema },
        404: { description: 'No such reply.', schema: ProblemSchema },
      },
      handler: async (req, _reply, { params, body }) => {
        const done = await decideReply(ctx.pool, req.apiKey!.id, params.response_id, body);
        await publish(req, `decision on reply ${params.response_id}`);
        return done;
      },
    }),
  ];
}
