import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { methodVersion, REPO_ROOT } from '../method/version.ts';

/**
 * The site version: a hash of everything that shapes the pages except their
 * data: the Astro project (site/ less its build folders), the page data code
 * (core/site/), the methodology text the method pages are built from, the
 * method version every page names, and the versions of astro and
 * @astrojs/node. A published site whose version differs is rebuilt in full;
 * one whose version matches is brought up to date page by page.
 */

const SKIP = new Set(['node_modules', 'dist', '.astro']);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIP.has(name)) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

let cached: string | undefined;

export function siteVersion(): string {
  if (cached) return cached;
  const h = createHash('sha256');
  const inputs = [
    ...files(path.join(REPO_ROOT, 'site')),
    ...files(path.join(REPO_ROOT, 'core', 'site')).filter((f) => !f.endsWith('.test.ts')),
    path.join(REPO_ROOT, 'content', 'methodology.md'),
    path.join(REPO_ROOT, 'node_modules', 'astro', 'package.json'),
    path.join(REPO_ROOT, 'node_modules', '@astrojs', 'node', 'package.json'),
  ];
  for (const f of inputs) {
    const bytes = readFileSync(f);
    h.update(`${path.relative(REPO_ROOT, f)}\n${bytes.length}\n`);
    h.update(bytes);
  }
  h.update(`method ${methodVersion()}\n`);
  cached = h.digest('hex').slice(0, 16);
  return cached;
}
