import { z } from 'zod';
import { nameKey, subjectIdFor } from '../corpus/pack.ts';
import { upsertSubjects } from '../corpus/store.ts';
import { withTransaction, type Pool } from '../db/pool.ts';
import { identifyWithModel } from '../providers/identify.ts';
import type { KnowledgeProvider, KnownSubject, Providers } from '../providers/types.ts';
import { SubjectKindSchema } from '../schemas/common.ts';
import type { ReportRequest } from '../schemas/requests.ts';
import { assignSubject } from './jobs.ts';

/**
 * A report asked for by a name the service has never seen (SPEC.md, "What the
 * service does", 5): with a model configured, POST /v1/reports answers 202 at
 * once with a job that has no subject yet (core/reports/service.ts); the job's
 * first stage, `identify`, places the name here, as resolve does:
 *   1. the knowledge sources again (the source packs, and Wikidata when
 *      configured): the name may be known by now;
 *   2. else the short model call (core/providers/identify.ts), whose word is
 *      trusted only in the cautious direction;
 *   3. the subject is stored, and the job takes it, in one transaction: from
 *      then on a request by the name finds the subject and joins this job.
 * The rules (a public figure, or consent_ref; never a serving politician) are
 * then applied by the research itself (jobs/pipeline/run.ts `refusal`), so a
 * new subject and a known one are refused alike. A name that cannot be placed
 * ends the job `insufficient` with the reason; a model that fails fails the
 * attempt before anything is stored (the job is retried, then `failed`).
 * The caller's urls and handles are identifiers only: matched against known
 * subjects' sites and named to the model, never fetched.
 */

/** The part of a new-subject job's request that says who (beside depth, topic and consent_ref). */
export const NewSubjectRequestSchema = z.object({
  name: z.string().min(1).max(300),
  /** The name as lookups compare it: the key callers share the open job by (migration 016). */
  name_key: z.string().min(1),
  kind: SubjectKindSchema.nullable(),
  urls: z.array(z.string()).max(20),
  handles: z.array(z.string()).max(20),
});

export type NewSubjectRequest = z.infer<typeof NewSubjectRequestSchema>;

export function newSubjectRequest(body: Pick<ReportRequest, 'name' | 'kind' | 'urls' | 'handles'>): NewSubjectRequest {
  const name = (body.name ?? '').trim();
  return { name, name_key: nameKey(name), kind: body.kind ?? null, urls: body.urls ?? [], handles: body.handles ?? [] };
}

/** The known subjects a name (and kind) names, narrowed by the identifiers sent with it: one rule for the request and the job. */
export async function findSubjects(knowledge: KnowledgeProvider, body: Pick<ReportRequest, 'name' | 'kind' | 'urls' | 'handles'>): Promise<KnownSubject[]> {
  const name = body.name?.trim() ?? '';
  let found = name ? await knowledge.lookup(name, body.kind ?? null) : [];
  // Identifiers tell namesakes apart (with a name) or name the subject (without one).
  if (found.length !== 1 && ((body.urls?.length ?? 0) > 0 || (body.handles?.length ?? 0) > 0)) {
    const identified = await knowledge.byIdentifiers(body.urls ?? [], body.handles ?? []);
    const narrowed = name ? identified.filter((s) => found.some((f) => f.subject_id === s.subject_id)) : identified.filter((s) => !body.kind || s.kind === body.kind);
    if (narrowed.length > 0) found = narrowed;
  }
  return found;
}

export type Placement = { placed: true; subjectId: string } | { placed: false; reason: string };

/**
 * Places a new-subject job's name: the subject to research, or why there is
 * none. Throws when a provider fails (the model, Wikidata): the attempt
 * fails and nothing has been stored.
 */
export async function placeNewSubject(pool: Pool, jobId: string, req: NewSubjectRequest, providers: Pick<Providers, 'knowledge' | 'model'>): Promise<Placement> {
  const found = await findSubjects(providers.knowledge, req);
  if (found.length > 1) {
    const ids = found.map((s) => `${s.subject_id} (${s.name}, ${s.kind})`).join(', ');
    return { placed: false, reason: `"${req.name}" matches ${found.length} subjects: ${ids}. Ask again with the subject_id of the one you mean.` };
  }
  if (found.length === 1) {
    const subjectId = found[0]!.subject_id;
    await withTransaction(pool, (tx) => assignSubject(tx, jobId, subjectId));
    return { placed: true, subjectId };
  }
  if (!providers.model) {
    // Only when the API had a model and this worker has none (a configuration that differs between processes).
    return { placed: false, reason: `"${req.name}" is not known to the service, and the worker that ran this job has no model configured to identify it. Configure MODEL_PROVIDER on the worker, or add the subject in a source pack (docs/source-packs.md).` };
  }
  // Wikidata, when configured, was asked first (above) and did not know the name: the model's "public" then does not stand.
  const identified = await identifyWithModel(providers.model, req, { wikidata: providers.knowledge.name === 'wikidata' });
  if (!identified.placed) return identified;
  const { record } = identified;
  const subjectId = subjectIdFor(record.kind, record.name);
  await withTransaction(pool, async (tx) => {
    await upsertSubjects(tx, [record]);
    await assignSubject(tx, jobId, subjectId);
  });
  return { placed: true, subjectId };
}
