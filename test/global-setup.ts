import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../core/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's embedded PostgreSQL (its `postgres` database). */
    pgUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole run, the embedded one the service itself
 * uses, in a fresh directory. Each test file makes a database of its own in it.
 */
export default async function setup(project: TestProject) {
  const dir = path.resolve('.test-data', `run-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const pg = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
  project.provide('pgUrl', pg.url);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
