import { createHash, randomBytes } from 'node:crypto';

export const newReportId = () => `rep_${randomBytes(10).toString('hex')}`;
export const newJobId = () => `job_${randomBytes(10).toString('hex')}`;

/** Stable across reports: the same subject, source and quote give the same claim id. */
export function claimIdFor(subjectId: string, sourceUrl: string, quote: string): string {
  return `clm_${createHash('sha256').update(`${subjectId}\n${sourceUrl}\n${quote}`).digest('hex').slice(0, 20)}`;
}
