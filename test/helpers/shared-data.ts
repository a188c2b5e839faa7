import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './process.ts';

/**
 * Where the real published data files (../shared/data: LIAR, the promise
 * tracker, the forecasts) are: beside this checkout, or, for a clone made
 * elsewhere (a CI checkout in a temporary folder), beside the local
 * repository it was cloned from. They are read, never copied into the
 * project. Not found: the tests that need them fail saying where they looked.
 */
function findSharedData(): string {
  const candidates = [path.resolve(ROOT, '..', 'shared', 'data')];
  try {
    const origin = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: ROOT, encoding: 'utf8' }).trim();
    // Only a local path: a URL or scp-style remote says nothing about this machine's folders.
    if (origin && path.isAbsolute(origin)) candidates.push(path.resolve(origin, '..', 'shared', 'data'));
  } catch {
    // Not a git checkout, or no origin: only the folder beside it counts.
  }
  const found = candidates.find((c) => existsSync(path.join(c, 'liar_valid.tsv')));
  if (!found) throw new Error(`the shared data files (liar_valid.tsv and the others) are not in ${candidates.join(' or ')}`);
  return found;
}

export const SHARED_DATA = findSharedData();
