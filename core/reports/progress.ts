import type { Queryable } from '../db/pool.ts';
import type { JobProgress } from '../schemas/resources.ts';
import { recordProgress } from './jobs.ts';

/**
 * Writes a running job's progress as the research reports it, without ever
 * holding the research up: `update` returns at once. One write is in flight
 * at a time and only the newest waiting value is written next, so writes land
 * in the order the research made them and a poll never sees counts go down.
 * A failed write is only logged: progress is a courtesy to the caller
 * waiting, never a reason for the job to fail.
 */
export type ProgressWriter = {
  update(p: JobProgress): void;
  /** Resolves once every update made so far has been written (or has failed). */
  flush(): Promise<void>;
};

export function progressWriter(db: Queryable, jobId: string, onError?: (err: Error) => void): ProgressWriter {
  let waiting: JobProgress | null = null;
  let running: Promise<void> | null = null;
  const drain = async () => {
    while (waiting) {
      const p = waiting;
      waiting = null;
      await recordProgress(db, jobId, p).catch((err: Error) => onError?.(err));
    }
    running = null;
  };
  return {
    update(p) {
      waiting = { ...p };
      running ??= drain();
    },
    async flush() {
      while (running) await running;
    },
  };
}
