import { demoOverview } from '../../core/demo/read.ts';
import { DEFINITIONS } from '../../core/demo/stats.ts';
import { AGREEMENT_IS_NOT_ACCURACY, DemoQuerySchema, DemoSchema } from '../../core/schemas/demo.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function demoRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/demo',
      operationId: 'getDemo',
      summary: 'Machine verdicts beside outcomes published by others',
      description:
        'The demo sets (claims imported with outcomes published by others: LIAR, ClaimReview, promise trackers, election forecasts), each claim\'s machine verdict beside the published outcome, and per set: n, coverage, agreement, adjacent agreement, the confusion matrix and, for forecast sets, the Brier score. Claims come a page at a time (`page`, `page_size` up to 200), grouped under their subjects; the sets\' figures are over whole sets. Agreement is not accuracy.',
      tags: ['publishing'],
      auth: true,
      query: DemoQuerySchema,
      responses: { 200: { description: 'The demo sets and a page of their claims.', schema: DemoSchema } },
      handler: async (_req, _reply, { query }) => ({
        note: AGREEMENT_IS_NOT_ACCURACY,
        definitions: DEFINITIONS,
        ...(await demoOverview(ctx.pool, query)),
      }),
    }),
  ];
}
