import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('ingest');
});
afterAll(() => db.drop());

const lines = (...records: unknown[]) => Readable.from(records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');

const subject = { record: 'subject', name: 'Quillfeather Ferries', kind: 'organisation', aliases: ['Quillfeather'], description: 'SAMPLE (test): a ferry operator.', public_figure: true, offices: [], urls: ['https://quillfeather.example'], handles: [], fleet_size: 12 };
const doc = (n: number, extra: Record<string, unknown> = {}) => ({
  record: 'document', url: `https://news.example/ferries-${n}`, title: `Ferry story ${n}`, publisher: 'Harbour Gazette', published: '2025-03-0' + ((n % 9) + 1),
  speakers: ['Quillfeather'], text: `Quillfeather said its crossings carried ${n * 1000} passengers in the winter timetable.`, ...extra,
});

describe('ingest', () => {
  it('loads subjects and documents, keeping unknown fields', async () => {
    const r = await ingestPack(db.pool, lines(subject, doc(1), doc(2, { section: 'business' })));
    expect(r).toMatchObject({ subjects: { read: 1, written: 1 }, documents: { read: 2, written: 2 }, skipped: [] });
    const { rows } = await db.pool.query('SELECT id, name_keys, extra FROM subjects WHERE name = $1', ['Quillfeather Ferries']);
    expect(rows[0]).toMatchObject({ id: subjectIdFor('organisation', 'Quillfeather Ferries'), extra: { fleet_size: 12 } });
    expect(rows[0].name_keys.sort()).toEqual(['quillfeather', 'quillfeather ferries']);
    const d = await db.pool.query('SELECT extra, speaker_keys FROM documents WHERE url = $1', ['https://news.example/ferries-2']);
    expect(d.rows[0]).toMatchObject({ extra: { section: 'business' }, speaker_keys: ['quillfeather'] });
  });

  it('is idempotent: a second run changes nothing', async () => {
    const before = await db.pool.query('SELECT url, ingested_at FROM documents ORDER BY url');
    const r = await ingestPack(db.pool, lines(subject, doc(1), doc(2, { section: 'business' })));
    expect(r).toMatchObject({ subjects: { read: 1, written: 0 }, documents: { read: 2, written: 0 } });
    expect((await db.pool.query('SELECT url, ingested_at FROM documents ORDER BY url')).rows).toEqual(before.rows);
  });

  it('reports malformed lines with their numbers, skips them, and loses nothing stored', async () => {
    const problems: { line: number; message: string }[] = [];
    const r = await ingestPack(
      db.pool,
      lines(doc(3), '{"record":"document", "url":', { record: 'subject', name: 'No Kind' }, { record: 'robot' }, '', doc(4), { record: 'document', url: 'javascript:alert(1)', text: 'x' }),
      (p) => problems.push(p),
    );
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 7]);
    expect(problems[0]!.message).toMatch(/JSON/);
    expect(problems[1]!.message).toMatch(/kind/);
    expect(problems[3]!.message).toMatch(/http/);
    expect(r.documents.written).toBe(2);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM documents');
    expect(rows[0].n).toBe(4);
  });

  it('accepts NUL and lone surrogates without failing the batch', async () => {
    const r = await ingestPack(db.pool, lines(doc(5, { title: 'Odd \u0000 title \ud800 here', text: 'Text with a NUL \u0000 in it and \udc00 a lone surrogate.' })));
    expect(r.documents.written).toBe(1);
    const { rows } = await db.pool.query('SELECT title, text FROM documents WHERE url = $1', ['https://news.example/ferries-5']);
    expect(rows[0].title).toBe('Odd  title \ufffd here');
  });

  it('indexes documents for full-text search', async () => {
    const { rows } = await db.pool.query(`SELECT url FROM documents WHERE tsv @@ websearch_to_tsquery('english', 'passengers crossings') ORDER BY url`);
    expect(rows.length).toBeGreaterThanOrEqual(4);
  });

  it('loads the sample pack, with every subject marked as sample data', async () => {
    const r = await ingestPack(db.pool, createReadStream(new URL('../content/sample-pack.jsonl', import.meta.url)));
    expect(r.skipped).toEqual([]);
    expect(r.subjects.read).toBeGreaterThanOrEqual(7);
    const { rows } = await db.pool.query(`SELECT description FROM subjects WHERE name <> 'Quillfeather Ferries'`);
    for (const row of rows) expect(row.description).toMatch(/^SAMPLE DATA \(invented\)/);
  });
});
