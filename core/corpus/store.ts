import type { Queryable } from '../db/pool.ts';
import { extraFields, nameKey, subjectIdFor, type DocumentRecord, type SubjectRecord } from './pack.ts';

/**
 * Writes pack records in batches, one statement per batch (a JSON array
 * unpacked by jsonb_to_recordset). Re-writing an unchanged record changes
 * nothing (not even updated_at): ingest is idempotent.
 */

export async function upsertSubjects(db: Queryable, records: SubjectRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  // Last one wins within a batch; PostgreSQL refuses to update one row twice in a statement.
  const byKey = new Map(records.map((r) => [`${r.kind}\n${r.name}`, r]));
  const rows = [...byKey.values()].map((r) => ({
    id: subjectIdFor(r.kind, r.name),
    name: r.name,
    kind: r.kind,
    aliases: r.aliases,
    description: r.description ?? null,
    public_figure: r.public_figure,
    offices: r.offices,
    urls: r.urls,
    handles: r.handles,
    demo: r.demo,
    extra: extraFields(r),
    name_keys: [...new Set([r.name, ...r.aliases].map(nameKey))],
  }));
  const { rowCount } = await db.query(
    `INSERT INTO subjects AS s (id, name, kind, aliases, description, public_figure, offices, urls, handles, demo, extra, name_keys)
     SELECT id, name, kind, aliases, description, public_figure, offices, urls, handles, demo, extra, name_keys
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, kind text, aliases text[], description text, public_figure boolean,
            offices jsonb, urls text[], handles text[], demo boolean, extra jsonb, name_keys text[])
     ON CONFLICT (name, kind) DO UPDATE SET
       aliases = excluded.aliases, description = excluded.description, public_figure = excluded.public_figure,
       offices = excluded.offices, urls = excluded.urls, handles = excluded.handles, demo = excluded.demo,
       extra = excluded.extra, name_keys = excluded.name_keys, updated_at = now()
     WHERE (s.aliases, s.description, s.public_figure, s.offices, s.urls, s.handles, s.demo, s.extra, s.name_keys)
           IS DISTINCT FROM (excluded.aliases, excluded.description, excluded.public_figure, excluded.offices, excluded.urls,
           excluded.handles, excluded.demo, excluded.extra, excluded.name_keys)`,
    [toJson(rows)],
  );
  return rowCount ?? 0;
}

export async function upsertDocuments(db: Queryable, records: DocumentRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const byUrl = new Map(records.map((r) => [r.url, r]));
  const rows = [...byUrl.values()].map((r) => ({
    url: r.url,
    title: r.title,
    publisher: r.publisher,
    published: r.published ?? null,
    speakers: r.speakers,
    speaker_keys: [...new Set(r.speakers.map(nameKey))],
    text: r.text,
    extra: extraFields(r),
  }));
  const { rowCount } = await db.query(
    `INSERT INTO documents AS d (url, title, publisher, published, speakers, speaker_keys, text, extra)
     SELECT url, title, publisher, published, speakers, speaker_keys, text, extra
       FROM jsonb_to_recordset($1::jsonb) AS r(url text, title text, publisher text, published date, speakers text[],
            speaker_keys text[], text text, extra jsonb)
     ON CONFLICT (url) DO UPDATE SET
       title = excluded.title, publisher = excluded.publisher, published = excluded.published, speakers = excluded.speakers,
       speaker_keys = excluded.speaker_keys, text = excluded.text, extra = excluded.extra, ingested_at = now()
     WHERE (d.title, d.publisher, d.published, d.speakers, d.text, d.extra)
           IS DISTINCT FROM (excluded.title, excluded.publisher, excluded.published, excluded.speakers, excluded.text, excluded.extra)`,
    [toJson(rows)],
  );
  return rowCount ?? 0;
}

/**
 * PostgreSQL text holds neither NUL nor lone UTF-16 surrogates: NUL is dropped
 * and a lone surrogate becomes U+FFFD, in every string, so that one odd
 * character cannot fail a whole batch.
 */
function toJson(rows: unknown[]): string {
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'string' ? v.replace(/\u0000/g, '').toWellFormed() : v));
}
