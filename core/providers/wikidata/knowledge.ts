import { z } from 'zod';
import type { ProviderConfig } from '../../config.ts';
import { nameKey, subjectIdFor, type SubjectRecord } from '../../corpus/pack.ts';
import { upsertSubjects } from '../../corpus/store.ts';
import type { Queryable } from '../../db/pool.ts';
import { getJson, type HttpTuning } from '../http.ts';
import { localProviders, toKnownSubject } from '../local/corpus.ts';
import type { KnowledgeProvider, KnownSubject, Office, SubjectKind } from '../types.ts';
import { EntitySchema, officesOf, readEntity, type WikidataReading } from './entities.ts';

/**
 * Knowledge from Wikidata, over the local corpus. Subjects already in the
 * database answer first (the source packs, and what Wikidata gave before);
 * only a name the database does not know goes to Wikidata:
 *   1. wbsearchentities (label and alias search, English) for candidate items;
 *   2. wbgetentities for their labels, aliases, descriptions, claims, sitelinks;
 *   3. wbgetentities again for the English labels of the positions they held.
 * Items are read by entities.ts (kind, offices, public figure). Only items
 * whose label or an alias is the name asked for are kept: the search matches
 * prefixes, and "Jane Doe" must not find "Jane Doeberg".
 *
 * Every subject found is stored (upsertSubjects, with the QID in extra.wikidata),
 * so byId, reports and later lookups read it from the database like any other.
 * An item keeps the name it was first stored under. Its id is
 * subjectIdFor(kind, name) when no other subject has that id; a namesake
 * (another item, or a pack subject that may or may not be the same person) is
 * never overwritten: the newcomer becomes "Name (description)", or
 * "Name (Q123)", with the plain name as an alias, so a lookup of the name
 * finds both and the caller chooses.
 *
 * byIdentifiers: the database first; then the handles only, on Wikidata's
 * X username (P2002) through haswbstatement search (exact value, so a handle
 * typed in another letter case may be missed). URLs stay local: official
 * website (P856) values are whole URLs that search can only match exactly,
 * which a page's URL never is.
 */

export type WikidataOptions = {
  tuning?: HttpTuning;
  /** Candidates asked of wbsearchentities (Wikidata allows 50). */
  searchLimit?: number;
  /** How long a name Wikidata does not know is not asked again; 0: always ask. */
  missTtlMs?: number;
};

const SearchAnswer = z.looseObject({ search: z.array(z.looseObject({ id: z.string() })).default([]) });
const EntitiesAnswer = z.looseObject({ entities: z.record(z.string(), z.unknown()) });
const QueryAnswer = z.looseObject({ query: z.looseObject({ search: z.array(z.looseObject({ title: z.string() })).default([]) }).optional() });

/** The MediaWiki API reports errors inside a 200 answer: {"error":{"code","info"}}. */
export function mediaWikiError(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown; info?: unknown } } | undefined)?.error;
  if (!e) return undefined;
  return [e.code, e.info].filter((x) => typeof x === 'string').join(': ') || 'error';
}

const COLUMNS = 'id, name, kind, aliases, description, public_figure, offices, urls, handles, demo';
type Row = { id: string; name: string; kind: SubjectKind; aliases: string[]; description: string | null; public_figure: boolean; offices: Office[]; urls: string[]; handles: string[]; demo: boolean };

export function wikidataKnowledge(cfg: ProviderConfig['knowledge'], db: Queryable, opts: WikidataOptions = {}): KnowledgeProvider {
  const local = localProviders(db).knowledge;
  const base = cfg.baseUrl.replace(/\/+$/, '');
  const searchLimit = Math.min(50, Math.max(1, opts.searchLimit ?? 10));
  const missTtlMs = opts.missTtlMs ?? 10 * 60_000;
  const misses = new Map<string, number>();

  const ask = <T>(params: Record<string, string>, schema: z.ZodType<T>) => {
    const url = new URL(`${base}/w/api.php`);
    for (const [k, v] of Object.entries({ ...params, format: 'json' })) url.searchParams.set(k, v);
    return getJson({ provider: 'wikidata', url, schema, bodyError: mediaWikiError, errorDetail: mediaWikiError, tuning: opts.tuning });
  };

  async function entities(ids: readonly string[], props: string) {
    const out = [];
    for (let i = 0; i < ids.length; i += 50) {
      const answer = await ask({ action: 'wbgetentities', ids: ids.slice(i, i + 50).join('|'), props, languages: 'en|mul' }, EntitiesAnswer);
      for (const raw of Object.values(answer.entities)) {
        const e = EntitySchema.safeParse(raw);
        if (e.success) out.push(e.data);
      }
    }
    return out;
  }

  /** Items read as subjects, with their offices' titles. */
  async function describe(ids: readonly string[]) {
    const readings = (await entities([...new Set(ids)], 'labels|aliases|descriptions|claims|sitelinks')).flatMap((e) => readEntity(e) ?? []);
    const order = new Map(ids.map((id, i) => [id, i]));
    readings.sort((a, b) => (order.get(a.qid) ?? 0) - (order.get(b.qid) ?? 0));
    const positions = [...new Set(readings.flatMap((r) => r.positions.map((p) => p.position)))];
    const labels = new Map<string, string>();
    for (const e of positions.length > 0 ? await entities(positions, 'labels') : []) {
      const label = e.labels?.en?.value ?? e.labels?.mul?.value;
      if (label) labels.set(e.id, label);
    }
    return readings.map((r) => ({ reading: r, offices: officesOf(r, labels) }));
  }

  async function store(found: { reading: WikidataReading; offices: Office[] }[]): Promise<KnownSubject[]> {
    if (found.length === 0) return [];
    const qids = found.map((f) => f.reading.qid);
    const { rows: before } = await db.query<{ name: string; kind: string; qid: string }>(
      `SELECT name, kind, extra->>'wikidata' AS qid FROM subjects WHERE extra->>'wikidata' = ANY($1::text[])`, [qids]);
    const choices = found.map(({ reading: r }) => {
      const kept = before.find((b) => b.qid === r.qid && b.kind === r.kind);
      if (kept) return [kept.name];
      const described = r.description ? `${r.name} (${r.description.slice(0, 120)})` : null;
      return [r.name, ...(described ? [described] : []), `${r.name} (${r.qid})`];
    });
    const allIds = choices.flatMap((names, i) => names.map((n) => subjectIdFor(found[i]!.reading.kind, n)));
    const { rows: taken } = await db.query<{ id: string; qid: string | null }>(
      `SELECT id, extra->>'wikidata' AS qid FROM subjects WHERE id = ANY($1::text[])`, [allIds]);
    const owner = new Map(taken.map((t) => [t.id, t.qid]));
    const records: SubjectRecord[] = [];
    for (const [i, { reading: r, offices }] of found.entries()) {
      const names = choices[i]!;
      const name = names.find((n) => {
        const id = subjectIdFor(r.kind, n);
        return !owner.has(id) || owner.get(id) === r.qid;
      }) ?? names[names.length - 1]!;
      owner.set(subjectIdFor(r.kind, name), r.qid);
      const aliases = [...new Set([...(name === r.name ? [] : [r.name]), ...r.aliases])].filter((a) => a !== name && a.length <= 300);
      records.push({
        record: 'subject', name: name.slice(0, 300), kind: r.kind, aliases: aliases.slice(0, 100), description: r.description?.slice(0, 2000) ?? null,
        public_figure: r.public_figure, offices: offices.slice(0, 100), urls: r.urls.filter((u) => u.length <= 2000).slice(0, 100),
        handles: r.handles.slice(0, 100), demo: false, wikidata: r.qid,
      });
    }
    await upsertSubjects(db, records);
    const ids = records.map((rec) => subjectIdFor(rec.kind, rec.name));
    const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM subjects WHERE id = ANY($1::text[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [toKnownSubject(byId.get(id)!)] : []));
  }

  const missKey = (name: string, kind: SubjectKind | null | undefined) => `${kind ?? '*'}\n${nameKey(name)}`;

  return {
    name: 'wikidata',
    async lookup(name, kind) {
      const known = await local.lookup(name, kind);
      if (known.length > 0 || name.trim() === '') return known;
      const key = missKey(name, kind);
      if ((misses.get(key) ?? 0) > Date.now()) return [];
      const search = await ask({ action: 'wbsearchentities', search: name.trim(), language: 'en', uselang: 'en', type: 'item', limit: String(searchLimit) }, SearchAnswer);
      const ids = search.search.map((s) => s.id).filter((id) => /^Q\d+$/.test(id));
      const wanted = nameKey(name);
      const found = ids.length === 0 ? [] : (await describe(ids)).filter(({ reading: r }) =>
        (!kind || r.kind === kind) && [r.name, ...r.aliases].some((n) => nameKey(n) === wanted));
      if (found.length === 0) {
        if (missTtlMs > 0) {
          misses.delete(key);
          misses.set(key, Date.now() + missTtlMs);
          // Oldest first in a Map: keep the memory bounded.
          if (misses.size > 1000) misses.delete(misses.keys().next().value!);
        }
        return [];
      }
      return store(found);
    },
    async byIdentifiers(urls, handles) {
      const known = await local.byIdentifiers(urls, handles);
      if (known.length > 0) return known;
      // X usernames are letters, digits and underscores; anything else could change the search's meaning.
      const tags = [...new Set(handles.map((h) => h.trim().replace(/^@/, '')).filter((h) => /^\w{1,50}$/.test(h)))].slice(0, 10);
      if (tags.length === 0) return [];
      const answer = await ask({ action: 'query', list: 'search', srsearch: `haswbstatement:${tags.map((t) => `P2002=${t}`).join('|')}`, srnamespace: '0', srlimit: '10' }, QueryAnswer);
      const ids = (answer.query?.search ?? []).map((s) => s.title).filter((t) => /^Q\d+$/.test(t));
      if (ids.length === 0) return [];
      const lower = new Set(tags.map((t) => t.toLowerCase()));
      return store((await describe(ids)).filter(({ reading: r }) => r.handles.some((h) => lower.has(h.toLowerCase()))));
    },
    byId: (id) => local.byId(id),
  };
}
