/**
 * `npm run --silent ingest -- FILE.jsonl [FILE.jsonl …] [--quiet]`: loads
 * source packs into the corpus (idempotent). Malformed lines are reported on
 * stderr with their line numbers and skipped; a summary goes to stdout. On a
 * terminal, each file's progress (bytes read of its size) is shown on stderr
 * (scripts/progress.ts), unless --quiet. Exit 0 when every file was read
 * (even with skipped lines), 1 when a file could not be read.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { ingestPack } from '../core/corpus/ingest.ts';
import { Progress } from './progress.ts';

const USAGE = 'usage: npm run --silent ingest -- FILE.jsonl [FILE.jsonl …] [--quiet]';
let args;
try {
  args = parseArgs({ allowPositionals: true, options: { quiet: { type: 'boolean', default: false } } });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const files = args.positionals;
if (files.length === 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const db = await openDatabase(loadConfig(), { mode: 'share', poolMax: 2 });
let failed = false;
try {
  for (const file of files) {
    // Bytes read of the file's size: the one total known before reading it. Read ahead of the
    // lines written by at most a batch, which is small beside a pack worth watching.
    const size = await stat(file).then((s) => s.size, () => null);
    const progress = new Progress({ label: `ingest ${path.basename(file)}`, total: size, unit: 'bytes', quiet: args.values.quiet });
    try {
      const input = createReadStream(file);
      let read = 0;
      input.on('data', (chunk) => progress.update((read += chunk.length)));
      const r = await ingestPack(db.pool, input, (p) => progress.log(`${file}:${p.line}: skipped: ${p.message}`));
      progress.finish({ detail: `${r.lines.toLocaleString('en')} lines` });
      process.stdout.write(
        `${file}: ${r.lines} lines; subjects ${r.subjects.read} read, ${r.subjects.written} new or changed; documents ${r.documents.read} read, ${r.documents.written} new or changed; ${r.skipped.length} skipped\n`,
      );
    } catch (err) {
      progress.abandon();
      failed = true;
      process.stderr.write(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`);
    }
  }
} finally {
  await db.close();
}
process.exit(failed ? 1 : 0);
