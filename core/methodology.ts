import { readFileSync } from 'node:fs';
import { marked } from 'marked';
import type { Queryable } from './db/pool.ts';
import { methodVersion, REPO_ROOT } from './method/version.ts';
import path from 'node:path';

/** The published method: content/methodology.md, the text the method version hashes. */
let cached: string | undefined;
export function methodologyMarkdown(): string {
  cached ??= readFileSync(path.join(REPO_ROOT, 'content', 'methodology.md'), 'utf8');
  return cached;
}

export type Measurement = { measured_at: string; method_version: string; datasets: unknown[]; note: string };

export async function latestMeasurement(db: Queryable): Promise<Measurement | null> {
  const { rows } = await db.query<{ measured_at: Date; method_version: string; body: { datasets?: unknown[]; note?: string } }>(
    'SELECT measured_at, method_version, body FROM measurements ORDER BY measured_at DESC, id DESC LIMIT 1',
  );
  const r = rows[0];
  if (!r) return null;
  return { measured_at: r.measured_at.toISOString(), method_version: r.method_version, datasets: r.body.datasets ?? [], note: r.body.note ?? '' };
}

export const NO_MEASUREMENT =
  'No measurement has been published yet: the agreement of machine verdicts with human labels and with published demo sets has not been measured for any method version. Until it is, treat every score as unmeasured.';

export function measurementNote(m: Measurement | null): string {
  if (!m) return NO_MEASUREMENT;
  const current = m.method_version === methodVersion();
  return `Latest measurement taken ${m.measured_at} on method version ${m.method_version}${current ? ' (the current one)' : `; the current version is ${methodVersion()} and has not been measured yet`}. Agreement is not accuracy.`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A whole HTML page of the methodology, rendered with marked, with the measurement section after it. */
export function methodologyHtml(m: Measurement | null): string {
  const body = marked.parse(methodologyMarkdown(), { async: false }) as string;
  const measurement = m
    ? `<pre>${escapeHtml(JSON.stringify(m, null, 2))}</pre><p>${escapeHtml(measurementNote(m))}</p>`
    : `<p>${escapeHtml(NO_MEASUREMENT)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Methodology (${escapeHtml(methodVersion())})</title></head>
<body><main>
<p>Method version <code>${escapeHtml(methodVersion())}</code></p>
${body}
<h2>Latest published measurement</h2>
${measurement}
</main></body></html>
`;
}
