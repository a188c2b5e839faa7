import { expect } from 'vitest';
import { JobPollSchema } from '../../core/schemas/resources.ts';
import type { TestApp } from './app.ts';
import { until } from './poll.ts';

/** Asks for a report (POST /v1/reports, 202) and waits for its job to complete; the report's id. */
export async function makeReport(t: TestApp, headers: Record<string, string>, payload: object): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload });
  expect(res.statusCode).toBe(202);
  const job = await until(async () => {
    const body = JobPollSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/reports/${res.json().job_id}`, headers })).json());
    return body.status === 'complete' ? body : undefined;
  }, 'the report', 60_000, 100);
  return job.report_id!;
}
