import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { upsertSubjects } from '../core/corpus/store.ts';
import { ProviderError } from '../core/providers/http.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import { wikidataKnowledge } from '../core/providers/wikidata/knowledge.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { startWikidataServer, type FakeServer, type WikidataEntity } from './helpers/web-servers.ts';
import { wdItem, wdPosition } from './helpers/wikidata-fixtures.ts';

/**
 * Identification checked against Wikidata: a loopback MediaWiki API answers
 * wbsearchentities, wbgetentities and haswbstatement search in Wikidata's
 * JSON; subjects land in a real database. People and places are invented.
 */

// Written out in full, as wbgetentities returns it, so the adapter is held to the real format, not only to our builder.
const valleyHerald: WikidataEntity = {
  type: 'item', id: 'Q900010',
  labels: { en: { language: 'en', value: 'The Valley Herald' } },
  descriptions: { en: { language: 'en', value: 'daily newspaper published in Westmarch' } },
  aliases: { en: [{ language: 'en', value: 'Valley Herald' }] },
  claims: {
    P31: [{ mainsnak: { snaktype: 'value', property: 'P31', hash: '3b3cfa5e2f4b0b6fd1d0a1c5a0e2a7c1d2b3c4d5', datavalue: { value: { 'entity-type': 'item', 'numeric-id': 1110794, id: 'Q1110794' }, type: 'wikibase-entityid' }, datatype: 'wikibase-item' }, type: 'statement', id: 'Q900010$6B7C2F0E-4B7D-4E4C-9A51-2D3A6E1F0C11', rank: 'normal' }],
    P856: [{ mainsnak: { snaktype: 'value', property: 'P856', hash: '8f1e3d2c4b5a69788796a5b4c3d2e1f0a9b8c7d6', datavalue: { value: 'https://www.valleyherald.example/', type: 'string' }, datatype: 'url' }, type: 'statement', id: 'Q900010$0A1B2C3D-0000-4000-8000-000000000001', rank: 'preferred', references: [] }],
    P571: [{ mainsnak: { snaktype: 'value', property: 'P571', hash: '1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4', datavalue: { value: { time: '+1921-00-00T00:00:00Z', timezone: 0, before: 0, after: 0, precision: 9, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' }, type: 'time' }, datatype: 'time' }, type: 'statement', id: 'Q900010$0A1B2C3D-0000-4000-8000-000000000002', rank: 'normal' }],
  },
  sitelinks: { enwiki: { site: 'enwiki', title: 'The Valley Herald', badges: [] } },
};

const entities: WikidataEntity[] = [
  wdPosition('Q900101', 'Mayor of Westmarch'),
  wdPosition('Q900102', 'Member of the Westmarch Assembly'),
  wdItem({ id: 'Q900001', label: 'Orla Penhallow', description: 'Mayor of Westmarch since 2019', aliases: ['O. Penhallow'], instanceOf: ['Q5'],
    sitelinks: ['enwiki', 'cywiki'], positions: [{ position: 'Q900101', start: '2019-05-01' }], websites: ['https://penhallow.example/'], xUsernames: ['OrlaPenhallow'] }),
  wdItem({ id: 'Q900002', label: 'Bram Essery', description: 'former Westmarch assembly member', instanceOf: ['Q5'], sitelinks: ['enwiki'],
    positions: [{ position: 'Q900102', start: '2008', end: '2016' }, { position: 'Q900101', start: '2020-01-01', rank: 'deprecated' }] }),
  wdItem({ id: 'Q900003', label: 'Tamsin Rowe', description: 'author of a survey of harbour silt', instanceOf: ['Q5'] }),
  valleyHerald,
  wdItem({ id: 'Q900020', label: 'Marta Quill', description: 'Westmarch harbour engineer', instanceOf: ['Q5'] }),
  wdItem({ id: 'Q900021', label: 'Marta Quill', description: 'Tidewater novelist', instanceOf: ['Q5'], sitelinks: ['enwiki'] }),
  wdItem({ id: 'Q900022', label: 'Marta Quill', description: 'Wikimedia disambiguation page', instanceOf: ['Q4167410'] }),
  wdItem({ id: 'Q900023', label: 'Marta Quillon', description: 'Tidewater painter', instanceOf: ['Q5'], sitelinks: ['enwiki'] }),
  wdItem({ id: 'Q900030', label: 'Westmarch Harbour Trust', instanceOf: ['Q163740'], websites: ['https://harbourtrust.example/'] }),
  wdItem({ id: 'Q900040', label: 'Cador Vellan', description: 'Tidewater ferry captain', aliases: ['C. Vellan'], instanceOf: ['Q5'], sitelinks: ['enwiki'] }),
  wdItem({ id: 'Q900050', label: 'Piran Jago', description: 'Westmarch broadcaster', instanceOf: ['Q5'], sitelinks: ['enwiki'], xUsernames: ['piranjago'] }),
];

let db: TestDatabase;
let wd: FakeServer;
beforeAll(async () => {
  db = await createTestDatabase('wikidata');
  wd = await startWikidataServer({ entities });
});
afterAll(async () => {
  await wd.close();
  await db.drop();
});

const knowledge = () => wikidataKnowledge({ provider: 'wikidata', baseUrl: wd.url }, db.pool, { tuning: { backoffMs: 10, timeoutMs: 2_000, attempts: 3 } });
const since = (n: number) => wd.requests.slice(n);

describe('Wikidata knowledge', () => {
  it('finds a serving office-holder, stores the subject, and reads it back from the database', async () => {
    const k = knowledge();
    const before = wd.requests.length;
    const [orla, ...more] = await k.lookup('Orla Penhallow');
    expect(more).toEqual([]);
    expect(orla).toEqual({
      subject_id: subjectIdFor('person', 'Orla Penhallow'), name: 'Orla Penhallow', kind: 'person', aliases: ['O. Penhallow'],
      description: 'Mayor of Westmarch since 2019', public_figure: true, offices: [{ title: 'Mayor of Westmarch', from: '2019-05-01', to: null }],
      serving_politician: true, urls: ['https://penhallow.example/'], handles: ['OrlaPenhallow'], demo: false,
    });
    const [search, get, labels] = since(before);
    expect(search!.query).toEqual({ action: 'wbsearchentities', search: 'Orla Penhallow', language: 'en', uselang: 'en', type: 'item', limit: '10', format: 'json' });
    expect(get!.query).toMatchObject({ action: 'wbgetentities', props: 'labels|aliases|descriptions|claims|sitelinks', languages: 'en|mul', format: 'json' });
    expect(get!.query.ids!.split('|')).toContain('Q900001');
    expect(labels!.query).toMatchObject({ action: 'wbgetentities', ids: 'Q900101', props: 'labels' });

    expect(await k.byId(orla!.subject_id)).toEqual(orla);
    const { rows } = await db.pool.query(`SELECT extra FROM subjects WHERE id = $1`, [orla!.subject_id]);
    expect(rows[0].extra).toEqual({ wikidata: 'Q900001' });

    // Known now: the database answers, by name or alias, and Wikidata is not asked again.
    const asked = wd.requests.length;
    expect(await knowledge().lookup('o. penhallow')).toEqual([orla]);
    expect(await localProviders(db.pool).knowledge.lookup('Orla Penhallow')).toEqual([orla]);
    expect(wd.requests.length).toBe(asked);
  });

  it('a former office-holder is not serving; a deprecated statement does not make them so', async () => {
    const [bram] = await knowledge().lookup('Bram Essery', 'person');
    expect(bram).toMatchObject({ serving_politician: false, public_figure: true, offices: [{ title: 'Member of the Westmarch Assembly', from: '2008-01-01', to: '2016-12-31' }] });
  });

  it('a person with no Wikipedia article and no office is not a public figure', async () => {
    const [tamsin] = await knowledge().lookup('Tamsin Rowe');
    expect(tamsin).toMatchObject({ kind: 'person', public_figure: false, serving_politician: false, offices: [] });
  });

  it('a daily newspaper is an outlet; asked for as a person, it is not found', async () => {
    const k = knowledge();
    expect(await k.lookup('The Valley Herald', 'person')).toEqual([]);
    const [herald] = await k.lookup('the valley herald', 'outlet');
    expect(herald).toMatchObject({ subject_id: subjectIdFor('outlet', 'The Valley Herald'), kind: 'outlet', public_figure: true, urls: ['https://www.valleyherald.example/'], aliases: ['Valley Herald'] });
    expect(await k.byId(herald!.subject_id)).toEqual(herald);
  });

  it('an organisation by its class', async () => {
    const [trust] = await knowledge().lookup('Westmarch Harbour Trust');
    expect(trust).toMatchObject({ kind: 'organisation', public_figure: true, subject_id: subjectIdFor('organisation', 'Westmarch Harbour Trust') });
  });

  it('an ambiguous name gives every namesake, each with an id of its own; not the disambiguation page nor a longer name', async () => {
    const found = await knowledge().lookup('Marta Quill');
    expect(found.map((s) => [s.name, s.description, s.public_figure])).toEqual([
      ['Marta Quill', 'Westmarch harbour engineer', false],
      ['Marta Quill (Tidewater novelist)', 'Tidewater novelist', true],
    ]);
    expect(found[1]!.aliases).toContain('Marta Quill');
    expect(new Set(found.map((s) => s.subject_id)).size).toBe(2);
    for (const s of found) expect(await knowledge().byId(s.subject_id)).toEqual(s);
    // Both stay findable by the plain name, from the database alone.
    expect((await localProviders(db.pool).knowledge.lookup('Marta Quill')).map((s) => s.subject_id).sort()).toEqual(found.map((s) => s.subject_id).sort());
    // Asked again, the same items keep the same subjects.
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM subjects WHERE extra->>'wikidata' IN ('Q900020', 'Q900021')`);
    expect(rows[0].n).toBe(2);
  });

  it('never overwrites a namesake from a source pack', async () => {
    await upsertSubjects(db.pool, [{ record: 'subject', name: 'Cador Vellan', kind: 'person', aliases: [], description: 'Curated: Westmarch councillor', public_figure: true, offices: [], urls: [], handles: [], demo: false }]);
    const [cador] = await knowledge().lookup('C. Vellan');
    expect(cador).toMatchObject({ name: 'Cador Vellan (Tidewater ferry captain)', aliases: expect.arrayContaining(['Cador Vellan', 'C. Vellan']) });
    const curated = await knowledge().byId(subjectIdFor('person', 'Cador Vellan'));
    expect(curated).toMatchObject({ description: 'Curated: Westmarch councillor', aliases: [] });
  });

  it('byIdentifiers finds a subject by X username on Wikidata when the database does not know it', async () => {
    const before = wd.requests.length;
    const [piran] = await knowledge().byIdentifiers([], ['@piranjago']);
    expect(piran).toMatchObject({ name: 'Piran Jago', handles: ['piranjago'], subject_id: subjectIdFor('person', 'Piran Jago') });
    expect(since(before)[0]!.query).toMatchObject({ action: 'query', list: 'search', srsearch: 'haswbstatement:P2002=piranjago' });
    expect(await knowledge().byIdentifiers([], ['nobody_here'])).toEqual([]);
  });

  it('a name Wikidata does not know is asked once, then remembered for a while', async () => {
    const k = knowledge();
    const before = wd.requests.length;
    expect(await k.lookup('Nobody Atall')).toEqual([]);
    expect(await k.lookup('nobody  atall')).toEqual([]);
    expect(wd.requests.length - before).toBe(1);
  });

  it('tries a 503 again; an error reported in a 200 answer is a ProviderError', async () => {
    wd.script({ status: 503, headers: { 'retry-after': '0' }, body: 'Service Temporarily Unavailable' });
    expect(await knowledge().lookup('Zennor Vos')).toEqual([]);
    wd.script({ json: { error: { code: 'internal_api_error_DBQueryError', info: 'A database query error has occurred.' }, servedby: 'mw-api-int' } });
    const err = await knowledge().lookup('Zennor Vos').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toContain('internal_api_error_DBQueryError');
  });
});
