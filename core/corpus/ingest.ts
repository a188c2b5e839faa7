import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Pool } from '../db/pool.ts';
import { PackRecordSchema, type DocumentRecord, type SubjectRecord } from './pack.ts';
import { upsertDocuments, upsertSubjects } from './store.ts';

export type IngestProblem = { line: number; message: string };
export type IngestResult = {
  lines: number;
  subjects: { read: number; written: number };
  documents: { read: number; written: number };
  skipped: IngestProblem[];
};

const BATCH_RECORDS = 200;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Streams a JSON Lines source pack into the corpus: one line at a time, in
 * batches, so memory stays flat however large the pack. A line that is not
 * valid JSON or not a valid record is reported with its number and skipped;
 * every batch commits on its own, so a bad line never undoes good ones.
 * Subjects are written before documents within each batch.
 */
export async function ingestPack(pool: Pool, input: Readable, onProblem?: (p: IngestProblem) => void): Promise<IngestResult> {
  const result: IngestResult = { lines: 0, subjects: { read: 0, written: 0 }, documents: { read: 0, written: 0 }, skipped: [] };
  let subjects: SubjectRecord[] = [];
  let documents: DocumentRecord[] = [];
  let bytes = 0;
  const problem = (line: number, message: string) => {
    const p = { line, message: message.slice(0, 300) };
    if (result.skipped.length < 1000) result.skipped.push(p);
    onProblem?.(p);
  };
  const flush = async () => {
    if (subjects.length) result.subjects.written += await upsertSubjects(pool, subjects);
    if (documents.length) result.documents.written += await upsertDocuments(pool, documents);
    subjects = [];
    documents = [];
    bytes = 0;
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const raw of lines) {
    const n = ++result.lines;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problem(n, `not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = PackRecordSchema.safeParse(value);
    if (!parsed.success) {
      problem(n, parsed.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; '));
      continue;
    }
    if (parsed.data.record === 'subject') {
      subjects.push(parsed.data);
      result.subjects.read++;
    } else {
      documents.push(parsed.data);
      result.documents.read++;
    }
    bytes += line.length;
    if (subjects.length + documents.length >= BATCH_RECORDS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return result;
}
