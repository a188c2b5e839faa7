import { DomainError, NotFoundError } from '../../core/errors.ts';
import { ResolveRequestSchema } from '../../core/schemas/requests.ts';
import { ResolveResponseSchema, SubjectDetailSchema, SubjectListSchema } from '../../core/schemas/resources.ts';
import { SubjectPathSchema, SubjectsQuerySchema } from '../../core/schemas/queries.ts';
import { getSubject, listReportedSubjects, resolveSubjects } from '../../core/subjects.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function subjectRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/subjects/resolve',
      operationId: 'resolveSubjects',
      summary: 'Turn a name with identifiers, or a block of text, into candidate subjects',
      description:
        'Known subjects carry their ids at once. A name is looked up among known subjects (offline: the subjects of the source packs; with a knowledge provider configured, it is identified there) and checked against the rules: a public figure, not a serving politician. A text is read for the people and organisations it names; it is neither stored nor logged. Each candidate says `known`, `eligible`, `needs_consent_ref` and, when not eligible, the `reason`.',
      tags: ['subjects'],
      auth: true,
      body: ResolveRequestSchema,
      responses: { 200: { description: 'Candidate subjects (possibly none).', schema: ResolveResponseSchema } },
      handler: async (_req, _reply, { body }) => resolveSubjects(ctx.knowledge, body, ctx.identify),
    }),
    // Without it, GET /v1/subjects/resolve would be read as the subject `resolve` (404). A concrete
    // path comes before a templated one, in OpenAPI as in the router: POST is its only method.
    defineRoute({
      method: 'GET',
      url: '/v1/subjects/resolve',
      operationId: 'resolveSubjectsGet',
      summary: 'Not a subject: resolve takes POST',
      tags: ['subjects'],
      auth: true,
      hidden: true,
      responses: { 405: { description: 'Method not allowed: send the request with POST.' } },
      handler: async () => {
        throw new DomainError(405, 'method-not-allowed', 'GET is not answered at /v1/subjects/resolve; it answers POST (see /openapi.json).', {}, { allow: 'POST' });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects',
      operationId: 'listSubjects',
      summary: 'Subjects with at least one stored report, newest report first',
      description: 'A subject\'s report here is its latest report on its whole record: a report on one topic neither lists a subject nor moves it up (it is served to requests for its topic, and carried in the export). Paged by `page` (from 1) and `page_size` (1 to 200, default 50); the envelope carries `paging: {page, page_size, total, total_pages}`; a page past the last is empty, not an error.',
      tags: ['subjects'],
      auth: true,
      query: SubjectsQuerySchema,
      responses: { 200: { description: 'One page of the subjects, each with its newest report.', schema: SubjectListSchema } },
      handler: async (_req, _reply, { query }) => listReportedSubjects(ctx.pool, { page: query.page, pageSize: query.page_size }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects/:subject_id',
      operationId: 'getSubject',
      summary: 'One subject, with its newest report if any',
      tags: ['subjects'],
      auth: true,
      params: SubjectPathSchema,
      responses: { 200: { description: 'The subject.', schema: SubjectDetailSchema }, 404: { description: 'No such subject.' } },
      handler: async (_req, _reply, { params }) => {
        const s = await getSubject(ctx.pool, params.subject_id);
        if (!s) throw new NotFoundError(`No subject ${params.subject_id}. Find subjects with POST /v1/subjects/resolve.`);
        return s;
      },
    }),
  ];
}
