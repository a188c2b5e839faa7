import { JobAcceptedSchema } from '../../core/schemas/common.ts';
import { CheckRequestSchema } from '../../core/schemas/requests.ts';
import { requestCheck } from '../../core/check/service.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function checkRoutes(ctx: AppContext) {
  const deps = {
    pool: ctx.pool,
    enqueue: ctx.enqueue,
    limits: { dailyJobLimit: ctx.config.dailyJobLimit, dailySpendLimitUsd: ctx.config.dailySpendLimitUsd },
  };
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/check',
      operationId: 'checkClaims',
      summary: 'Check claims or a block of text: per-claim outcomes, no score',
      description: [
        'Runs as a job: 202 with `{job_id, status, poll}`; poll `/v1/reports/<job_id>` (only with the key that asked). Every request is a job of its own, counted against the key\'s daily job limit (429 past it) and the spending ceiling (503 past it).',
        '- `text`: read as a document published by `author` on `said_on` (today, UTC, by default); its checkable claims are the sentences it states in its own voice that hold a figure, a date, a named person, place or organisation, a commitment, a forecast or advice (what it quotes others as saying is not its claim). No checkable claim: the job ends `insufficient` with the reason.',
        '- `claims`: each item is one claim, checked as it stands (`source_url`, when given, is never taken as evidence for it). When both are sent, `claims` is checked and `text` ignored.',
        '- `author`: when it names exactly one known subject, that subject\'s own publications and sites do not count as independent evidence.',
        'Each claim is typed, given its fixed test, and judged on evidence exactly as in a report. Once `complete`, the poll carries `results`: one CheckResult per claim (in the order of the text, or as sent), with outcome, rationale, evidence and `judges_disagree`; no score.',
        'The submitted text is deleted from the job when the job ends, however it ends (complete, insufficient, failed): the job keeps only its results, which quote each checked claim (the sentence taken from the text, or the claim as sent), not the rest of the text nor the author. The queue entry never holds the text.',
      ].join('\n'),
      tags: ['check'],
      auth: true,
      startsJobs: true,
      body: CheckRequestSchema,
      responses: { 202: { description: 'The check job was started; poll it.', schema: JobAcceptedSchema } },
      handler: async (req, reply, { body }) => {
        const accepted = await requestCheck(deps, req.apiKey!.id, body);
        reply.code(202);
        return accepted;
      },
    }),
  ];
}
