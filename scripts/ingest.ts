/**
 * `npm run --silent ingest -- FILE.jsonl [FILE.jsonl …]`: loads source packs
 * into the corpus (idempotent). Malformed lines are reported on stderr with
 * their line numbers and skipped; a summary goes to stdout. Exit 0 when every
 * file was read (even with skipped lines), 1 when a file could not be read.
 */
import { createReadStream } from 'node:fs';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { ingestPack } from '../core/corpus/ingest.ts';

const files = process.argv.slice(2);
if (files.length === 0 || files.some((f) => f.startsWith('-'))) {
  process.stderr.write('usage: npm run --silent ingest -- FILE.jsonl [FILE.jsonl …]\n');
  process.exit(2);
}

const db = await openDatabase(loadConfig(), { mode: 'share', poolMax: 2 });
let failed = false;
try {
  for (const file of files) {
    try {
      const r = await ingestPack(db.pool, createReadStream(file), (p) => process.stderr.write(`${file}:${p.line}: skipped: ${p.message}\n`));
      process.stdout.write(
        `${file}: ${r.lines} lines; subjects ${r.subjects.read} read, ${r.subjects.written} new or changed; documents ${r.documents.read} read, ${r.documents.written} new or changed; ${r.skipped.length} skipped\n`,
      );
    } catch (err) {
      failed = true;
      process.stderr.write(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`);
    }
  }
} finally {
  await db.close();
}
process.exit(failed ? 1 : 0);
