import { z } from 'zod';
import type { Office, SubjectKind } from '../types.ts';

/**
 * Reading Wikidata entities (the wbgetentities JSON) into what the service
 * knows of a subject. Pure: no requests here, so every rule below is tested
 * on its own (entities.test.ts).
 *
 * Kind, from instance of (P31), direct classes only: a walk up subclass of
 * (P279) would cost a request per class, and a class missing from these lists
 * leaves an item out rather than misfiling it.
 *  - person: Q5 (human).
 *  - outlet: the news-outlet classes in OUTLET_CLASSES.
 *  - organisation: the classes in ORGANISATION_CLASSES, or any item with a
 *    headquarters location (P159) or a legal form (P1454), which only
 *    organisations carry.
 *  - anything else (disambiguation pages, places, works, …): not a subject.
 * The class ids were checked against several public codebases that name them
 * (mid-2020s); Q17232649 is labelled "news website" by some and otherwise by
 * others, and is kept as an outlet class on that reading.
 *
 * Public figure: an organisation or outlet always is; a person is when at
 * least one Wikipedia (any language) has an article on them, or when they
 * hold or held a position (P39). Anyone else on Wikidata (authors of papers,
 * people in genealogical records) is treated as private.
 */

export const HUMAN = 'Q5';

export const OUTLET_CLASSES: ReadonlyMap<string, string> = new Map([
  ['Q11032', 'newspaper'],
  ['Q1110794', 'daily newspaper'],
  ['Q2305295', 'weekly newspaper'],
  ['Q1153191', 'online newspaper'],
  ['Q17232649', 'news website'],
  ['Q192283', 'news agency'],
  ['Q41298', 'magazine'],
  ['Q1684600', 'news magazine'],
  ['Q1002697', 'periodical'],
  ['Q15265344', 'broadcaster'],
  ['Q1616075', 'television station'],
  ['Q2001305', 'television channel'],
  ['Q14350', 'radio station'],
]);

export const ORGANISATION_CLASSES: ReadonlyMap<string, string> = new Map([
  ['Q43229', 'organization'],
  ['Q4830453', 'business'],
  ['Q783794', 'company'],
  ['Q891723', 'public company'],
  ['Q6881511', 'enterprise'],
  ['Q167037', 'corporation'],
  ['Q7278', 'political party'],
  ['Q163740', 'nonprofit organization'],
  ['Q15911314', 'association'],
  ['Q157031', 'foundation'],
  ['Q327333', 'government agency'],
  ['Q2659904', 'government organization'],
  ['Q192350', 'ministry'],
  ['Q484652', 'international organization'],
  ['Q245065', 'intergovernmental organization'],
  ['Q178790', 'trade union'],
  ['Q31855', 'research institute'],
  ['Q3918', 'university'],
  ['Q2085381', 'publisher'],
  ['Q1331793', 'media company'],
]);

/** Wikimedia pages that are not things: disambiguation, name disambiguation, category, list. */
export const NOT_SUBJECTS: ReadonlySet<string> = new Set(['Q4167410', 'Q22808320', 'Q4167836', 'Q13406463']);

/** Sitelink keys ending in "wiki" that are not Wikipedias. */
const NOT_WIKIPEDIA = new Set(['commonswiki', 'specieswiki', 'metawiki', 'mediawikiwiki', 'wikidatawiki', 'sourceswiki', 'outreachwiki',
  'wikimaniawiki', 'incubatorwiki', 'wikifunctionswiki', 'foundationwiki', 'testwiki', 'testwikidatawiki']);

// Wikibase writes an empty map as [] in some places; read it as {}.
const map = <T extends z.ZodType>(value: T) =>
  z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string(), value)).optional();

const Snak = z.looseObject({ snaktype: z.string(), datavalue: z.looseObject({ type: z.string(), value: z.unknown() }).optional() });
const Statement = z.looseObject({ mainsnak: Snak, rank: z.string().default('normal'), qualifiers: map(z.array(Snak)) });
const Term = z.looseObject({ value: z.string() });

export const EntitySchema = z.looseObject({
  id: z.string(),
  missing: z.string().optional(),
  labels: map(Term),
  descriptions: map(Term),
  aliases: map(z.array(Term)),
  claims: map(z.array(Statement)),
  sitelinks: map(z.unknown()),
});
export type Entity = z.infer<typeof EntitySchema>;
type Snak = z.infer<typeof Snak>;

/** A subject as read from one entity; offices still hold position ids (labels come in a second request). */
export type WikidataReading = {
  qid: string;
  name: string;
  kind: SubjectKind;
  aliases: string[];
  description: string | null;
  public_figure: boolean;
  positions: { position: string; from: string | null; to: string | null }[];
  urls: string[];
  handles: string[];
};

// 'mul' is Wikidata's label for all languages (names of people, mostly); English comes first.
const LANGS = ['en', 'mul'] as const;

export function termOf(e: Entity, field: 'labels' | 'descriptions'): string | null {
  for (const l of LANGS) {
    const v = e[field]?.[l]?.value.trim();
    if (v) return v;
  }
  return null;
}

/** Statements of a property that count: deprecated ones are Wikidata's record of what is wrong. */
function statements(e: Entity, property: string) {
  return (e.claims?.[property] ?? []).filter((s) => s.rank !== 'deprecated');
}

function itemId(s: Snak | undefined): string | null {
  const v = s?.snaktype === 'value' ? (s.datavalue?.value as { id?: unknown } | undefined) : undefined;
  return typeof v?.id === 'string' ? v.id : null;
}

function stringValue(s: Snak): string | null {
  return s.snaktype === 'value' && typeof s.datavalue?.value === 'string' ? s.datavalue.value.trim() || null : null;
}

export function kindOf(e: Entity): SubjectKind | null {
  const classes = statements(e, 'P31').map((s) => itemId(s.mainsnak)).filter((id): id is string => id !== null);
  if (classes.some((c) => NOT_SUBJECTS.has(c))) return null;
  if (classes.includes(HUMAN)) return 'person';
  if (classes.some((c) => OUTLET_CLASSES.has(c))) return 'outlet';
  if (classes.some((c) => ORGANISATION_CLASSES.has(c))) return 'organisation';
  if (statements(e, 'P159').length > 0 || statements(e, 'P1454').length > 0) return 'organisation';
  return null;
}

export function wikipediaCount(e: Entity): number {
  return Object.keys(e.sitelinks ?? {}).filter((k) => /^[a-z][a-z0-9_]*wiki$/.test(k) && !NOT_WIKIPEDIA.has(k)).length;
}

/**
 * A Wikidata time ("+2019-05-01T00:00:00Z") as YYYY-MM-DD. Precision 11 is a
 * day, 10 a month, 9 a year; a month or a year reads as its first day when it
 * starts an office and its last day when it ends one, so an office is never
 * shortened. Coarser precisions, negative years and years past 9999 give null.
 */
export function wikidataDay(value: unknown, edge: 'start' | 'end'): string | null {
  const v = value as { time?: unknown; precision?: unknown } | undefined;
  if (typeof v?.time !== 'string') return null;
  const m = /^\+(\d{1,4})-(\d{2})-(\d{2})T/.exec(v.time);
  if (!m) return null;
  const precision = typeof v.precision === 'number' ? v.precision : 11;
  const y = Number(m[1]);
  let mo = Number(m[2]);
  let d = Number(m[3]);
  if (precision < 9 || y < 1) return null;
  if (precision === 9 || mo === 0) {
    mo = edge === 'start' ? 1 : 12;
    d = edge === 'start' ? 1 : 31;
  } else if (precision === 10 || d === 0) {
    d = edge === 'start' ? 1 : new Date(Date.UTC(y, mo, 0)).getUTCDate();
  }
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Positions held (P39), with start (P580) and end (P582) qualifiers. No end
 * date means the position is held now; an end of unknown date ("somevalue",
 * an end date too coarse to read, or an end cause P1534 without a date) means
 * it ended: the end is then the start date, and a position with neither date
 * is dropped, since nothing true can be said of when it was held.
 */
function positionsOf(e: Entity): WikidataReading['positions'] {
  const out: WikidataReading['positions'] = [];
  for (const s of statements(e, 'P39')) {
    const position = itemId(s.mainsnak);
    if (!position) continue;
    const q = s.qualifiers ?? {};
    const start = q.P580?.find((x) => x.snaktype === 'value');
    const from = start ? wikidataDay(start.datavalue?.value, 'start') : null;
    const ends = q.P582 ?? [];
    const endSnak = ends.find((x) => x.snaktype === 'value');
    let to: string | null = null;
    let ended = false;
    if (endSnak) {
      to = wikidataDay(endSnak.datavalue?.value, 'end');
      ended = true;
    } else if (ends.some((x) => x.snaktype === 'somevalue') || (ends.length === 0 && (q.P1534?.length ?? 0) > 0)) {
      ended = true;
    }
    if (ended && to === null) {
      if (from === null) continue;
      to = from;
    }
    out.push({ position, from, to });
  }
  return out;
}

/** The subject an entity describes, or null when it is none the service scores (or has no usable name). */
export function readEntity(e: Entity): WikidataReading | null {
  if (e.missing !== undefined) return null;
  const name = termOf(e, 'labels');
  const kind = kindOf(e);
  if (!name || !kind) return null;
  const aliases = [...new Set(LANGS.flatMap((l) => (e.aliases?.[l] ?? []).map((a) => a.value.trim())))].filter((a) => a && a !== name);
  const positions = positionsOf(e);
  const values = (p: string) => [...new Set(statements(e, p).map((s) => stringValue(s.mainsnak)).filter((v): v is string => v !== null))];
  return {
    qid: e.id,
    name,
    kind,
    aliases,
    description: termOf(e, 'descriptions'),
    public_figure: kind !== 'person' || wikipediaCount(e) > 0 || statements(e, 'P39').length > 0,
    positions,
    urls: values('P856').filter((u) => /^https?:\/\//i.test(u)),
    handles: values('P2002').map((h) => h.replace(/^@/, '')),
  };
}

/** Offices with titles: a position's label, or its id when it has none in English. */
export function officesOf(r: WikidataReading, labels: ReadonlyMap<string, string>): Office[] {
  return r.positions.map((p) => ({ title: labels.get(p.position) ?? p.position, from: p.from, to: p.to }));
}
