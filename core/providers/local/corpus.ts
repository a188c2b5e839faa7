import type { Queryable } from '../../db/pool.ts';
import { nameKey } from '../../corpus/pack.ts';
import {
  holdsOfficeOn,
  type FetchProvider,
  type FetchedDocument,
  type KnowledgeProvider,
  type KnownSubject,
  type SearchProvider,
  type StatementProvider,
  type Providers,
  type SearchHit,
  type SubjectKind,
  type Office,
} from '../types.ts';

/**
 * The offline engine's providers: everything answered from the local corpus
 * (source packs ingested into PostgreSQL). Search is PostgreSQL full-text
 * search (websearch syntax, ranked by ts_rank: ts_rank_cd's cover-density ranking cost eight times as much on a 1,000-document corpus); fetch reads a stored
 * document by URL; knowledge reads the subjects table.
 */

type SubjectRow = {
  id: string; name: string; kind: SubjectKind; aliases: string[]; description: string | null; public_figure: boolean;
  offices: Office[]; urls: string[]; handles: string[]; demo: boolean; sample?: boolean | null;
};

const SUBJECT_COLUMNS = "id, name, kind, aliases, description, public_figure, offices, urls, handles, demo, (extra->>'sample') = 'true' AS sample";

export function toKnownSubject(r: SubjectRow, today = new Date().toISOString().slice(0, 10)): KnownSubject {
  return {
    subject_id: r.id, name: r.name, kind: r.kind, aliases: r.aliases, description: r.description, public_figure: r.public_figure,
    offices: r.offices, serving_politician: holdsOfficeOn(r.offices, today), urls: r.urls, handles: r.handles, demo: r.demo,
    ...(r.sample === true || /^SAMPLE DATA\b/.test(r.description ?? '') ? { sample: true } : {}),
  };
}

type DocRow = { url: string; title: string; publisher: string; published: string | null; speakers: string[]; text: string; sample: boolean };

export function localProviders(db: Queryable): Providers {
  const knowledge: KnowledgeProvider = {
    name: 'local',
    async lookup(name, kind) {
      const { rows } = await db.query<SubjectRow>(
        `SELECT ${SUBJECT_COLUMNS} FROM subjects WHERE name_keys @> ARRAY[$1::text] AND ($2::text IS NULL OR kind = $2) ORDER BY name, kind, id`,
        [nameKey(name), kind ?? null],
      );
      return rows.map((r) => toKnownSubject(r));
    },
    async byIdentifiers(urls, handles) {
      const hosts = urls.flatMap((u) => {
        try {
          return [new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `https://${u}`).host.toLowerCase().replace(/^www\./, '')];
        } catch {
          return [];
        }
      });
      const tags = handles.map((h) => h.trim().toLowerCase().replace(/^@/, '')).filter(Boolean);
      if (hosts.length === 0 && tags.length === 0) return [];
      const { rows } = await db.query<SubjectRow>(
        `SELECT ${SUBJECT_COLUMNS} FROM subjects s
          WHERE EXISTS (SELECT 1 FROM unnest(s.urls) u WHERE lower(regexp_replace(substring(u from '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#]+)'), '^www\\.', '')) = ANY($1::text[]))
             OR EXISTS (SELECT 1 FROM unnest(s.handles) h WHERE lower(ltrim(h, '@')) = ANY($2::text[]))
          ORDER BY name, kind, id`,
        [hosts, tags],
      );
      return rows.map((r) => toKnownSubject(r));
    },
    async byId(id) {
      const { rows } = await db.query<SubjectRow>(`SELECT ${SUBJECT_COLUMNS} FROM subjects WHERE id = $1`, [id]);
      return rows[0] ? toKnownSubject(rows[0]) : null;
    },
  };

  const fetch: FetchProvider = {
    name: 'local',
    async fetch(url) {
      const { rows } = await db.query<DocRow>("SELECT url, title, publisher, published, speakers, text, (extra->>'sample') = 'true' AS sample FROM documents WHERE url = $1", [url]);
      const row = rows[0];
      if (!row) return null;
      const { sample, ...doc } = row;
      return sample ? { ...doc, sample: true } : doc;
    },
  };

  const search: SearchProvider = {
    name: 'local',
    async search(query, opts) {
      if (query.trim() === '') return [];
      const { rows } = await db.query<SearchHit>(
        `SELECT url, title, publisher, published, ts_rank(tsv, q) AS rank
           FROM documents, websearch_to_tsquery('english', $1) AS q
          WHERE tsv @@ q AND NOT (url = ANY($3::text[]))
          ORDER BY rank DESC, published DESC NULLS LAST, url
          LIMIT $2`,
        [query, opts.limit, opts.excludeUrls ?? []],
      );
      return rows;
    },
  };

  const statements: StatementProvider = {
    name: 'local',
    async statementsBy(subject, opts) {
      const keys = [...new Set([subject.name, ...subject.aliases].map(nameKey))];
      const { rows } = await db.query<DocRow>(
        `SELECT url, title, publisher, published, speakers, text, (extra->>'sample') = 'true' AS sample FROM documents
          WHERE speaker_keys && $1::text[]
          ORDER BY published DESC NULLS LAST, url LIMIT $2`,
        [keys, opts.limit],
      );
      return rows.map(({ sample, ...doc }) => (sample ? { ...doc, sample: true } : doc));
    },
  };

  return { knowledge, fetch, search, statements, model: null };
}
