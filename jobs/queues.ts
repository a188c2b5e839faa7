import type { Queue } from 'pg-boss';

/**
 * The service's pg-boss queues. Each job queue has a file of its own in jobs/
 * exporting its payload schema and handler; the names live here so that the
 * status route can count every queue's depth.
 */
export const QUEUES = {
  report: 'report',
  reportDead: 'report-dead',
  check: 'check',
  checkDead: 'check-dead',
  siteBuild: 'site-build',
  export: 'nightly-export',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const PGBOSS_SCHEMA = 'pgboss';

/**
 * Recovery from a worker that dies mid-job: it stops sending heartbeats, the
 * monitor (every MONITOR_SECONDS) fails the attempt once HEARTBEAT_SECONDS have
 * passed without one, and pg-boss retries it RETRY_LIMIT times; after the
 * last, the job goes to the dead letter queue, whose worker ends it `failed`
 * with a reason. So a job is never left `running`: a dead worker's job is
 * taken up again within about HEARTBEAT_SECONDS + MONITOR_SECONDS (≈ 20 s).
 */
export const HEARTBEAT_SECONDS = 10;
export const MONITOR_SECONDS = 10;
export const RETRY_LIMIT = 2;

export const QUEUE_OPTIONS: Record<QueueName, Omit<Queue, 'name'>> = {
  [QUEUES.reportDead]: { retryLimit: 3, retryDelay: 5 },
  [QUEUES.report]: {
    retryLimit: RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60,
    heartbeatSeconds: HEARTBEAT_SECONDS, deadLetter: QUEUES.reportDead,
  },
  [QUEUES.checkDead]: { retryLimit: 3, retryDelay: 5 },
  // A check job's dead letters end it `failed` and delete its submitted text (jobs/check-worker.ts).
  [QUEUES.check]: { retryLimit: RETRY_LIMIT, retryDelay: 5, expireInSeconds: 30 * 60, heartbeatSeconds: HEARTBEAT_SECONDS, deadLetter: QUEUES.checkDead },
  [QUEUES.siteBuild]: { retryLimit: 2, retryDelay: 10 },
  [QUEUES.export]: { retryLimit: 2, retryDelay: 60 },
};

/** Queues whose depth /v1/status reports (the dead letter queue is bookkeeping). */
export const COUNTED_QUEUES: readonly string[] = [QUEUES.report, QUEUES.check, QUEUES.siteBuild, QUEUES.export];
