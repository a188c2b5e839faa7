import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PageData } from '../../../core/site/page-data.ts';

/**
 * The data the Astro build reads: the single pages (index, methodology
 * pages, exports) of the snapshot the site-build job wrote
 * (core/site/snapshot.ts). Report, subject and browse pages are not Astro
 * routes: the full build renders them with this build's own renderer (the
 * /live route, the same Page component), in parallel (jobs/site/render-pool.ts).
 */
export function readPage(view: string): PageData {
  return JSON.parse(readFileSync(path.join(__SITE_DATA__, 'pages', `${view}.json`), 'utf8'));
}
