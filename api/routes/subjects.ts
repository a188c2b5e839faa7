import { ResolveRequestSchema } from '../../core/schemas/requests.ts';
import { ResolveResponseSchema, SubjectDetailSchema, SubjectListSchema } from '../../core/schemas/resources.ts';
import { SubjectPathSchema } from '../../core/schemas/queries.ts';
import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

export function subjectRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/subjects/resolve',
      operationId: 'resolveSubjects',
      summary: 'Turn a name with identifiers, or a block of text, into candidate subjects',
      description: 'Known subjects carry their ids at once. A new name is identified and checked against the rules (a public figure; not a serving politician). The text is never stored.',
      tags: ['subjects'],
      auth: true,
      body: ResolveRequestSchema,
      responses: { 200: { description: 'Candidate subjects.', schema: ResolveResponseSchema } },
      handler: notBuilt('Subject resolution'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects',
      operationId: 'listSubjects',
      summary: 'Subjects with at least one stored report, newest report first',
      tags: ['subjects'],
      auth: true,
      responses: { 200: { description: 'The subjects.', schema: SubjectListSchema } },
      handler: notBuilt('The subject list'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects/:subject_id',
      operationId: 'getSubject',
      summary: 'One subject',
      tags: ['subjects'],
      auth: true,
      params: SubjectPathSchema,
      responses: { 200: { description: 'The subject.', schema: SubjectDetailSchema }, 404: { description: 'No such subject.' } },
      handler: notBuilt('Subject lookup'),
    }),
  ];
}
