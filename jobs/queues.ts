/**
 * The service's pg-boss queues. Each later gets a file of its own in jobs/
 * exporting its payload schema and handler; the names live here so that the
 * status route can count every queue's depth.
 */
export const QUEUES = {
  report: 'report',
  check: 'check',
  siteBuild: 'site-build',
  export: 'nightly-export',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const PGBOSS_SCHEMA = 'pgboss';
