import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CheckRequest } from '../schemas/requests.ts';

/**
 * What a check job keeps in jobs.request while it runs, and only until it ends
 * (however it ends): the submitted text or claims, the author and the day they
 * were said on. One schema for the route that stores it and the worker that
 * reads it back; a stored request that does not parse (written by another
 * version of the service, or altered in the database) fails the attempt.
 */
export const CheckJobRequestSchema = z.object({
  text: z.string().nullable(),
  claims: z.array(z.object({ text: z.string().min(1), source_url: z.string().nullable() })).nullable(),
  author: z.string().nullable(),
  said_on: z.iso.date(),
}).refine((r) => (r.text !== null) !== (r.claims !== null), 'exactly one of text and claims');

export type CheckJobRequest = z.infer<typeof CheckJobRequestSchema>;

/**
 * The request as the job stores it: `said_on` defaults to today (UTC) at the
 * moment of asking; `claims` wins over `text` when both are sent (the claims
 * are what the caller has already picked out).
 */
export function checkJobRequest(body: CheckRequest, now = new Date()): CheckJobRequest {
  const claims = body.claims?.filter((c) => c.text.trim() !== '').map((c) => ({ text: c.text, source_url: c.source_url || null })) ?? [];
  return {
    text: claims.length ? null : (body.text ?? ''),
    claims: claims.length ? claims : null,
    author: body.author?.trim() || null,
    said_on: body.said_on ?? now.toISOString().slice(0, 10),
  };
}

/** A checked claim's id: `chk_`, unique within its job. Not a stored claim's id, so replies and labels do not take it. */
export function checkClaimId(jobId: string, position: number, text: string): string {
  return `chk_${createHash('sha256').update(`${jobId}\n${position}\n${text}`).digest('hex').slice(0, 20)}`;
}
