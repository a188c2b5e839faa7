import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Queryable } from '../db/pool.ts';
import { exportLines, type ExportOptions } from '../export.ts';
import { methodVersion } from '../method/version.ts';

/**
 * The nightly export files: every published subject's latest report as JSON
 * Lines and as the CSV tables (claims, scores, and the review record:
 * reviews), the same records as
 * GET /v1/export (core/export.ts), with a manifest giving the date, the method
 * version, the counts and each file's size and sha256. One night's files live
 * in `exports/<date>/` of the site; `exports/latest.json` is the newest
 * manifest. All the files are written from one database snapshot (the
 * caller passes a REPEATABLE READ transaction), so their counts agree.
 */

export type ExportFile = { name: string; path: string; format: 'jsonl' | 'csv'; table: 'claims' | 'scores' | 'reviews' | null; media_type: string; bytes: number; sha256: string; records: number };
export type ExportManifest = {
  date: string;
  generated_at: string;
  method_version: string;
  include_demo: false;
  review_status_note: string;
  /** `reviews`: entries of the review record (absent from manifests written before it existed). */
  counts: { subjects: number; reports: number; scores: number; claims: number; reviews?: number };
  files: ExportFile[];
  manifest_path: string;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

async function writeLines(file: string, lines: AsyncIterable<string>, onLine?: (line: string) => void): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const out = createWriteStream(file, { flags: 'wx' });
  let bytes = 0;
  let pending = '';
  try {
    for await (const chunk of lines) {
      const buf = Buffer.from(chunk, 'utf8');
      hash.update(buf);
      bytes += buf.length;
      if (onLine) {
        pending += chunk;
        const parts = pending.split('\n');
        pending = parts.pop()!;
        for (const p of parts) if (p) onLine(p);
      }
      if (!out.write(buf)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  } catch (err) {
    out.destroy();
    throw err;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Writes one night's export into `dir` (a new folder, then renamed into
 * place by the caller's publish step) and returns its manifest.
 */
export async function writeExport(db: Queryable, dir: string, date: string, now = new Date()): Promise<ExportManifest> {
  if (!DATE.test(date)) throw new Error(`bad export date ${date}`);
  await mkdir(dir, { recursive: true });
  const base: Omit<ExportOptions, 'format' | 'table'> = { includeDemo: false };
  const counts = { subjects: 0, reports: 0, scores: 0, claims: 0, reviews: 0 };
  const reports = new Set<string>();
  const files: ExportFile[] = [];
  const sitePath = (name: string) => `/exports/${date}/${name}`;

  const jsonl = `reliability-${date}.jsonl`;
  const j = await writeLines(path.join(dir, jsonl), exportLines(db, { ...base, format: 'jsonl', table: 'claims' }), (line) => {
    const rec = JSON.parse(line) as { record: string; report_id?: string | null };
    if (rec.record === 'subject') counts.subjects++;
    else if (rec.record === 'score') counts.scores++;
    else if (rec.record === 'claim') counts.claims++;
    else if (rec.record === 'review') counts.reviews++;
    // A review record may name any report the subject ever had: only exported reports count.
    if (rec.report_id && rec.record !== 'review') reports.add(rec.report_id);
  });
  counts.reports = reports.size;
  files.push({ name: jsonl, path: sitePath(jsonl), format: 'jsonl', table: null, media_type: 'application/x-ndjson', ...j, records: counts.subjects + counts.scores + counts.claims + counts.reviews });
  for (const table of ['claims', 'scores', 'reviews'] as const) {
    const name = `reliability-${table}-${date}.csv`;
    const c = await writeLines(path.join(dir, name), exportLines(db, { ...base, format: 'csv', table }));
    files.push({ name, path: sitePath(name), format: 'csv', table, media_type: 'text/csv', ...c, records: counts[table] });
  }
  const manifest: ExportManifest = {
    date, generated_at: now.toISOString(), method_version: methodVersion(), include_demo: false,
    review_status_note: 'Every score and verdict in these files is machine-generated, unreviewed unless its review_status says reviewed (each record carries review_status); the reviews table and the review records are the record of every review, sign-off and reply decision.',
    counts, files, manifest_path: sitePath('manifest.json'),
  };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The manifests of the nights kept in a site's `exports/` folder, newest first. */
export async function readExportManifests(exportsDir: string): Promise<ExportManifest[]> {
  let names: string[];
  try {
    names = await readdir(exportsDir);
  } catch {
    return [];
  }
  const out: ExportManifest[] = [];
  for (const n of names.filter((x) => DATE.test(x)).sort().reverse()) {
    try {
      out.push(JSON.parse(await readFile(path.join(exportsDir, n, 'manifest.json'), 'utf8')) as ExportManifest);
    } catch {
      // A night without a readable manifest is not listed (and is pruned by the next export).
    }
  }
  return out;
}
