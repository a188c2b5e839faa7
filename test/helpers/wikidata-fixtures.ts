import { randomUUID } from 'node:crypto';
import type { WikidataEntity } from './web-servers.ts';

/**
 * Wikidata items in the wbgetentities JSON format (statements with mainsnak,
 * rank, qualifiers and qualifiers-order; time values with precision and
 * calendar model), built from a short description. Names are invented.
 *
 * Dates: 'YYYY-MM-DD' (precision 11), 'YYYY-MM' (10), 'YYYY' (9), or
 * 'somevalue' for "a date exists but is unknown".
 */

type When = string;

export type ItemSpec = {
  id: string;
  label: string;
  /** 'mul': the label every language shares (Wikidata's default for names). */
  labelLanguage?: 'en' | 'mul';
  description?: string;
  aliases?: string[];
  instanceOf: string[];
  positions?: { position: string; start?: When; end?: When; endCause?: string; rank?: 'normal' | 'preferred' | 'deprecated' }[];
  websites?: string[];
  xUsernames?: string[];
  /** Sitelink keys: 'enwiki', 'dewiki', 'commonswiki'… */
  sitelinks?: string[];
  headquarters?: string;
};

const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';

function timeValue(when: When) {
  const [y, m, d] = when.split('-');
  const precision = d ? 11 : m ? 10 : 9;
  return { time: `+${y}-${m ?? '00'}-${d ?? '00'}T00:00:00Z`, timezone: 0, before: 0, after: 0, precision, calendarmodel: GREGORIAN };
}

function snak(property: string, kind: 'item' | 'time' | 'string' | 'url' | 'external-id', value: string) {
  if (value === 'somevalue') return { snaktype: 'somevalue', property, hash: hash(), datatype: kind === 'item' ? 'wikibase-item' : kind };
  const datavalue = kind === 'item'
    ? { value: { 'entity-type': 'item', 'numeric-id': Number(value.slice(1)), id: value }, type: 'wikibase-entityid' }
    : kind === 'time' ? { value: timeValue(value), type: 'time' } : { value, type: 'string' };
  return { snaktype: 'value', property, hash: hash(), datavalue, datatype: kind === 'item' ? 'wikibase-item' : kind };
}

function statement(subject: string, main: ReturnType<typeof snak>, rank = 'normal', qualifiers: ReturnType<typeof snak>[] = []) {
  const q: Record<string, ReturnType<typeof snak>[]> = {};
  for (const s of qualifiers) (q[s.property] ??= []).push(s);
  return {
    mainsnak: main, type: 'statement', id: `${subject}$${randomUUID().toUpperCase()}`, rank, references: [],
    ...(qualifiers.length > 0 ? { qualifiers: q, 'qualifiers-order': Object.keys(q) } : {}),
  };
}

function hash(): string {
  return randomUUID().replace(/-/g, '').slice(0, 40).padEnd(40, '0');
}

export function wdItem(spec: ItemSpec): WikidataEntity {
  const id = spec.id;
  const claims: Record<string, unknown[]> = {};
  const add = (p: string, s: unknown) => void (claims[p] ??= []).push(s);
  for (const c of spec.instanceOf) add('P31', statement(id, snak('P31', 'item', c)));
  for (const p of spec.positions ?? []) {
    const qualifiers = [
      ...(p.start ? [snak('P580', 'time', p.start)] : []),
      ...(p.end ? [snak('P582', 'time', p.end)] : []),
      ...(p.endCause ? [snak('P1534', 'item', p.endCause)] : []),
    ];
    add('P39', statement(id, snak('P39', 'item', p.position), p.rank, qualifiers));
  }
  for (const w of spec.websites ?? []) add('P856', statement(id, snak('P856', 'url', w)));
  for (const x of spec.xUsernames ?? []) add('P2002', statement(id, snak('P2002', 'external-id', x)));
  if (spec.headquarters) add('P159', statement(id, snak('P159', 'item', spec.headquarters)));
  const lang = spec.labelLanguage ?? 'en';
  return {
    type: 'item',
    id,
    labels: { [lang]: { language: lang, value: spec.label } },
    descriptions: spec.description ? { en: { language: 'en', value: spec.description } } : {},
    aliases: spec.aliases?.length ? { en: spec.aliases.map((value) => ({ language: 'en', value })) } : {},
    claims,
    sitelinks: Object.fromEntries((spec.sitelinks ?? []).map((site) => [site, { site, title: spec.label, badges: [] }])),
  };
}

/** A position item (an office), as wbgetentities gives it with props=labels. */
export function wdPosition(id: string, label: string): WikidataEntity {
  return wdItem({ id, label, instanceOf: ['Q4164871'] });
}
