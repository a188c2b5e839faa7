import { z } from 'zod';
import { ProblemSchema } from '../../core/schemas/common.ts';
import { LabelRequestSchema } from '../../core/schemas/requests.ts';
import { LabelAckSchema, LabelListSchema, LabelQueueSchema } from '../../core/schemas/resources.ts';
import { LabelQueueQuerySchema, LabelsQuerySchema } from '../../core/schemas/queries.ts';
import { LABEL_CSV_COLUMNS, labelQueue, labelsCsv, labelsPage, listLabels, recordLabel } from '../../core/labels.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function labelRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/labels',
      operationId: 'postLabel',
      summary: 'Record your verdict on a claim',
      description:
        'One verdict per key and claim; a second one replaces the first (`replaced: true`). The answer reveals the machine verdict (`machine`: outcome, rationale, judges_disagree) and, for demo claims, the outcome published by others (`published`). Labels belong to the key that made them: no other key sees them. An unknown `claim_id` (including a check result\'s `chk_…` id) answers 404.',
      tags: ['labels'],
      auth: true,
      scope: 'label',
      body: LabelRequestSchema,
      responses: {
        200: { description: 'The label was stored.', schema: LabelAckSchema },
        404: { description: 'No such claim.', schema: ProblemSchema },
      },
      handler: async (req, _reply, { body }) => recordLabel(ctx.pool, req.apiKey!.id, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/labels',
      operationId: 'listLabels',
      summary: 'The labels made with your key',
      description: [
        'Only the labels made with the calling key (never another key\'s), oldest first; `subject_id` limits them to one subject\'s claims.',
        'JSON comes a page at a time: `page` (from 1) and `page_size` (1 to 200, default 50), with `paging: {page, page_size, total, total_pages}`; a page past the last is empty, not an error. CSV is a download of every label at once.',
        `\`format=json\` (default): a LabelList. \`format=csv\`: \`text/csv\` (RFC 4180: CRLF line ends, fields with quotes, commas or line breaks quoted, quotes doubled), a header row \`${LABEL_CSV_COLUMNS.join(',')}\`, then one row per label; a text field starting with \`=\`, \`+\`, \`-\`, \`@\` (or their full-width forms), a tab or a carriage return is prefixed with \`'\` so that no spreadsheet runs it as a formula.`,
      ].join('\n'),
      tags: ['labels'],
      auth: true,
      scope: 'label',
      query: LabelsQuerySchema,
      responses: {
        200: {
          description: 'Your labels: JSON (LabelList), or CSV with `format=csv` (`text/csv`, a download: `Content-Disposition: attachment; filename="labels.csv"`).',
          schema: LabelListSchema,
          alternatives: {
            'text/csv': {
              schema: z.string().describe(`RFC 4180 CSV: a header row \`${LABEL_CSV_COLUMNS.join(',')}\`, then one row per label.`),
              example: `${LABEL_CSV_COLUMNS.join(',')}\r\n`,
            },
          },
        },
      },
      handler: async (req, reply, { query }) => {
        if (query.format === 'csv') {
          reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="labels.csv"');
          return labelsCsv(await listLabels(ctx.pool, req.apiKey!.id, query.subject_id));
        }
        return labelsPage(ctx.pool, req.apiKey!.id, query.subject_id, { page: query.page, pageSize: query.page_size });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/labels/claims',
      operationId: 'labelQueue',
      summary: 'The blind labelling queue for one subject',
      description: [
        'The subject\'s researched claims (those of its latest report, then its demo claims), each with its quote, source, fixed test and evidence passages, and whether you have labelled it.',
        'Blind: until you have labelled a claim, `machine` is null and nothing else gives the machine\'s verdict away: no outcome, rationale, `judges_disagree` or `on_time`, and for demo claims no published outcome. Once you have labelled it, `label` is your verdict and `machine` the machine\'s.',
        'The evidence passages are shown because a reviewer labels by them: they are what the judges read, chosen before judging, in the evidence stage\'s order (independent sources first, then by how closely they match the claim\'s words). They carry no verdict; a claim with no evidence can hardly have been resolved, and that much shows.',
        'The queue keeps nothing from a reviewer who looks elsewhere (a subject\'s claims list shows its verdicts): it serves reviewers who want to label blind.',
        'An unknown subject answers 404; a known one with no stored report and no demo claims has an empty queue.',
        'Paged like every list: `page` (from 1) and `page_size` (1 to 200, default 50), with `paging: {page, page_size, total, total_pages}`; `labelled` counts the caller\'s labels over the whole queue, not one page.',
      ].join('\n'),
      tags: ['labels'],
      auth: true,
      scope: 'label',
      query: LabelQueueQuerySchema,
      responses: {
        200: { description: 'The subject\'s researched claims, blind where you have not labelled them.', schema: LabelQueueSchema },
        404: { description: 'No such subject.', schema: ProblemSchema },
      },
      handler: async (req, _reply, { query }) => labelQueue(ctx.pool, req.apiKey!.id, query.subject_id, { page: query.page, pageSize: query.page_size }),
    }),
  ];
}
