import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PageData } from '../../../core/site/page-data.ts';

/**
 * The data a full build reads: the snapshot the site-build job wrote
 * (core/site/snapshot.ts). Only static pages read it, at build time.
 */
const read = (...parts: string[]) => JSON.parse(readFileSync(path.join(__SITE_DATA__, ...parts), 'utf8'));

export function pageList(view: 'report' | 'subject' | 'browse'): { key: string }[] {
  return read('lists', `${view}.json`);
}

export function readPage(view: string, key?: string): PageData {
  return key === undefined ? read('pages', `${view}.json`) : read('pages', view, `${key}.json`);
}
