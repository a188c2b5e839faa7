import { z } from 'zod';
import { MethodologySchema } from '../../core/schemas/resources.ts';
import { ExportQuerySchema, MethodologyQuerySchema } from '../../core/schemas/queries.ts';
import { Readable } from 'node:stream';
import { exportLines } from '../../core/export.ts';
import { defineRoute } from '../route.ts';
import type { AppContext } from '../context.ts';
import { latestMeasurement, measurementNote, methodologyHtml, methodologyMarkdown } from '../../core/methodology.ts';
import { methodVersion } from '../../core/method/version.ts';
import { notBuilt } from './not-built.ts';

export function publishRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/export',
      operationId: 'exportReports',
      summary: 'Every subject\'s latest report, as JSON Lines or CSV',
      description: 'JSON Lines records of kind `subject`, `score`, `claim` and `review`; or one CSV table, `claims`, `scores` or `reviews`. A claim\'s `outcome` and `rationale` are the verdict that stands (the reviewer\'s once its version is reviewed), with `review_status`, `machine_verdict` and `review` (CSV: `machine_outcome`, `review_decision`, `reviewed_by`, `reviewed_at`); a score carries its report\'s `review_status` (CSV also `signed_off_by`, `signed_off_at`). The `review` records (CSV table `reviews`: `record_id, action, subject_id, report_id, claim_id, response_id, reviewer, at, before, after, note`, with `before` and `after` as JSON text) are the subject\'s whole review record, every review, sign-off, reply decision, lapse and withdrawal, oldest first, whichever report each was made on. Demo subjects are left out unless `include_demo` is true. A subject\'s latest report is the one on its whole record; after it come its latest report on each topic it has one on, with all their claims. Every row says which: `topic` on `score` records and in the `scores` table, `report_topic` on `claim` records and in the `claims` table (there `topic` is the claim\'s own topic); null, or an empty cell, for the whole record.',
      tags: ['publishing'],
      auth: true,
      query: ExportQuerySchema,
      responses: {
        200: {
          description: 'The export: `application/x-ndjson` (JSON Lines) or `text/csv` with a header row. CSV cells that begin with = + - @ are prefixed with an apostrophe (no formula runs when it is opened in a spreadsheet). Every score and claim record carries its `review_status`: the label, or `reviewed`.',
          contentType: 'application/x-ndjson',
          schema: z.string().describe('JSON Lines: one JSON record a line, each with its `record` kind (`subject`, `score`, `claim`, `review`).'),
          example: `${JSON.stringify({ record: 'subject', subject_id: 'sub_3f2a9c1d7e5b4a60', name: 'Valley District Council', kind: 'organisation' })}\n`,
          alternatives: {
            'text/csv': {
              schema: z.string().describe('With `format=csv`: one table (`table`), RFC 4180 with a header row.'),
              example: 'subject_id,subject_name,topic,score\r\nsub_3f2a9c1d7e5b4a60,Valley District Council,,61.5\r\n',
            },
          },
        },
      },
      handler: async (_req, reply, { query }) => {
        const day = new Date().toISOString().slice(0, 10);
        const name = query.format === 'csv' ? `reliability-${query.table}-${day}.csv` : `reliability-${day}.jsonl`;
        reply.type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="${name}"`);
        return reply.send(Readable.from(exportLines(ctx.pool, { format: query.format, table: query.table, subjectId: query.subject_id, includeDemo: query.include_demo })));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/methodology',
      operationId: 'getMethodology',
      summary: 'The method version, the published method and the latest measurement',
      tags: ['publishing'],
      auth: true,
      query: MethodologyQuerySchema,
      responses: {
        200: {
          description:
            'The methodology as JSON (default), Markdown (`text/markdown`) or HTML (`text/html`), chosen by `format`. Each names the current method version: JSON in `method_version`; Markdown in its first line, `Method version: <version>`, followed by a blank line and the published method; HTML at the top of the page.',
          schema: MethodologySchema,
          alternatives: {
            'text/markdown': { schema: z.string().describe('With `format=markdown`.'), example: 'Method version: 1.2.0+649101a67186\n\n# How the reliability score is made\n' },
            'text/html': { schema: z.string().describe('With `format=html`.'), example: '<!doctype html>\n<html lang="en"><head><title>Methodology</title></head><body><p>Method version: 1.2.0+649101a67186</p></body></html>\n' },
          },
        },
      },
      handler: async (_req, reply, { query }) => {
        const measurement = await latestMeasurement(ctx.pool);
        // The published text is what the version's build id hashes, so it is served unchanged after the version line.
        if (query.format === 'markdown') return reply.type('text/markdown; charset=utf-8').send(`Method version: ${methodVersion()}\n\n${methodologyMarkdown()}`);
        if (query.format === 'html') return reply.type('text/html; charset=utf-8').send(methodologyHtml(measurement));
        return { method_version: methodVersion(), markdown: methodologyMarkdown(), measurement, measurement_note: measurementNote(measurement) };
      },
    }),
  ];
}
