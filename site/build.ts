/**
 * The Astro part of a full build, run by the site-build job in a child
 * process (jobs/site/astro.ts): `node site/build.ts --data DIR --out DIR --cache DIR`.
 * It builds the page renderer (the @astrojs/node bundle, server/), the
 * stylesheets and public files, and the single pages (index, methodology
 * pages, exports page); the report, subject and browse pages are rendered
 * with that bundle afterwards (jobs/site/render-pool.ts).
 * DIR of --data is the snapshot the job wrote (core/site/snapshot.ts); pages
 * read it at build time through `__SITE_DATA__`. Prints one JSON line with the
 * time taken. Exits non-zero on any error, leaving the caller to discard --out.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, cache: { type: 'string' } } });
if (!values.data || !values.out || !values.cache) {
  process.stderr.write('usage: node site/build.ts --data DIR --out DIR --cache DIR\n');
  process.exit(2);
}
// Set before Astro loads: no telemetry, and a production build whatever the caller's NODE_ENV.
process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV = 'production';
const { build } = await import('astro');
const root = path.dirname(fileURLToPath(import.meta.url));
const t0 = performance.now();
await build({
  root,
  outDir: path.resolve(values.out),
  cacheDir: path.resolve(values.cache),
  logLevel: 'warn',
  vite: { define: { __SITE_DATA__: JSON.stringify(path.resolve(values.data)) }, logLevel: 'warn' },
});
process.stdout.write(`${JSON.stringify({ ms: Math.round(performance.now() - t0) })}\n`);
