import os from 'node:os';
import { Piscina } from 'piscina';
import type { AssessTask, Assessment, ExtractTask, Features, SelectTask } from './cpu-worker.ts';
import type { EvidenceItem } from '../../core/research/evidence.ts';
import type { CandidateClaim } from '../../core/research/types.ts';

/**
 * A pool of worker threads (piscina) for the pipeline's CPU-bound steps:
 * natural-language parsing is most of a report's time, and one thread per
 * core turns a many-claim report from one core's work into all of them. The
 * main thread keeps the database work. With `threads` 0 (or one core) the
 * steps run in the calling thread: same functions, same results.
 */

let pool: Piscina | undefined;
let size = Math.max(0, os.availableParallelism() > 1 ? os.availableParallelism() : 0);

/** Sets the number of threads (0: run in the calling thread). Takes effect for the next pool. */
export function configurePipelineThreads(threads: number): void {
  size = threads;
}

function thePool(): Piscina | undefined {
  if (size <= 0) return undefined;
  pool ??= new Piscina({
    filename: new URL('./cpu-worker.ts', import.meta.url).href,
    // Threads stay up between reports: each one loads the NLP models once (about a second).
    minThreads: size,
    maxThreads: size,
    idleTimeout: 10 * 60_000,
  });
  return pool;
}

// The steps themselves are loaded only when run in this thread: loading them
// brings the language models, which a process that never runs them should not pay for.
const inline = () => import('./cpu-worker.ts');

export async function runExtract(task: ExtractTask): Promise<CandidateClaim[]> {
  const p = thePool();
  return p ? p.run(task, { name: 'extract' }) : (await inline()).extract(task);
}

export async function runAssess(task: AssessTask): Promise<Assessment> {
  const p = thePool();
  return p ? p.run(task, { name: 'assess' }) : (await inline()).assess(task);
}

export async function runSelect(task: SelectTask): Promise<EvidenceItem[]> {
  const p = thePool();
  return p ? p.run(task, { name: 'select' }) : (await inline()).select(task);
}

export async function runFeatures(quote: string): Promise<Features> {
  const p = thePool();
  return p ? p.run({ quote }, { name: 'features' }) : (await inline()).features({ quote });
}

/** Starts the threads and lets each load its models, so the first report does not pay for it. */
export async function warmPipelinePool(): Promise<void> {
  const p = thePool();
  if (!p) return;
  await Promise.all(Array.from({ length: size }, () => p.run({}, { name: 'warm' })));
}

/** Stops the threads (at shutdown; a later task starts a new pool). */
export async function closePipelinePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
