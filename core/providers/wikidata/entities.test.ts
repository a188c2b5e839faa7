import { describe, expect, it } from 'vitest';
import { wdItem } from '../../../test/helpers/wikidata-fixtures.ts';
import { EntitySchema, kindOf, readEntity, wikidataDay } from './entities.ts';

/** The pure reading of Wikidata entities: dates, kinds, offices, public figures. */

const read = (spec: Parameters<typeof wdItem>[0]) => readEntity(EntitySchema.parse(wdItem(spec)));
const time = (t: string, precision: number) => ({ time: t, precision, timezone: 0, before: 0, after: 0, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' });

describe('wikidataDay', () => {
  it('reads a day, and a month or a year as its first or last day', () => {
    expect(wikidataDay(time('+2019-05-01T00:00:00Z', 11), 'start')).toBe('2019-05-01');
    expect(wikidataDay(time('+2024-02-00T00:00:00Z', 10), 'start')).toBe('2024-02-01');
    expect(wikidataDay(time('+2024-02-00T00:00:00Z', 10), 'end')).toBe('2024-02-29');
    expect(wikidataDay(time('+2023-02-00T00:00:00Z', 10), 'end')).toBe('2023-02-28');
    expect(wikidataDay(time('+2016-00-00T00:00:00Z', 9), 'start')).toBe('2016-01-01');
    expect(wikidataDay(time('+2016-00-00T00:00:00Z', 9), 'end')).toBe('2016-12-31');
  });

  it('gives null for what it cannot place on a day', () => {
    expect(wikidataDay(time('+2010-00-00T00:00:00Z', 8), 'start')).toBeNull();
    expect(wikidataDay(time('-0044-03-15T00:00:00Z', 11), 'start')).toBeNull();
    expect(wikidataDay({ time: 42 }, 'start')).toBeNull();
  });
});

describe('readEntity', () => {
  it('an office without an end is held now; one with an end is not', () => {
    const r = read({ id: 'Q900001', label: 'Orla Penhallow', instanceOf: ['Q5'], sitelinks: ['enwiki'], positions: [
      { position: 'Q900101', start: '2019-05-01' },
      { position: 'Q900102', start: '2010', end: '2016-03' },
    ] });
    expect(r?.positions).toEqual([
      { position: 'Q900101', from: '2019-05-01', to: null },
      { position: 'Q900102', from: '2010-01-01', to: '2016-03-31' },
    ]);
  });

  it('an end of unknown date, or an end cause alone, ends the office; deprecated statements do not count', () => {
    const r = read({ id: 'Q900002', label: 'Bram Essery', instanceOf: ['Q5'], positions: [
      { position: 'Q900101', start: '2012-01-01', end: 'somevalue' },
      { position: 'Q900102', start: '2014-06-01', endCause: 'Q900199' },
      { position: 'Q900103', end: 'somevalue' },
      { position: 'Q900104', start: '2020-01-01', rank: 'deprecated' },
    ] });
    expect(r?.positions).toEqual([
      { position: 'Q900101', from: '2012-01-01', to: '2012-01-01' },
      { position: 'Q900102', from: '2014-06-01', to: '2014-06-01' },
    ]);
  });

  it('kinds: human, news outlet, organisation by class or by headquarters; other items are not subjects', () => {
    const k = (instanceOf: string[], headquarters?: string) => kindOf(EntitySchema.parse(wdItem({ id: 'Q1', label: 'x', instanceOf, headquarters })));
    expect(k(['Q5'])).toBe('person');
    expect(k(['Q11032'])).toBe('outlet');
    expect(k(['Q192283'])).toBe('outlet');
    expect(k(['Q7278'])).toBe('organisation');
    expect(k(['Q99999999'], 'Q900300')).toBe('organisation');
    expect(k(['Q515'])).toBeNull();
    expect(k(['Q4167410'])).toBeNull();
    expect(k(['Q5', 'Q4167410'])).toBeNull();
  });

  it('a person is a public figure with a Wikipedia article or an office; otherwise not', () => {
    expect(read({ id: 'Q2', label: 'A', instanceOf: ['Q5'], sitelinks: ['dewiki'] })?.public_figure).toBe(true);
    expect(read({ id: 'Q3', label: 'B', instanceOf: ['Q5'], positions: [{ position: 'Q9', start: '2001' }] })?.public_figure).toBe(true);
    expect(read({ id: 'Q4', label: 'C', instanceOf: ['Q5'], sitelinks: ['commonswiki', 'enwikiquote'] })?.public_figure).toBe(false);
    expect(read({ id: 'Q5', label: 'D', instanceOf: ['Q11032'] })?.public_figure).toBe(true);
  });

  it('reads names in English or the shared (mul) language, websites and X usernames', () => {
    const r = read({ id: 'Q6', label: 'Idris Trevanion', labelLanguage: 'mul', aliases: ['I. Trevanion'], instanceOf: ['Q5'],
      websites: ['https://trevanion.example/', 'not a url'], xUsernames: ['@itrevanion'] });
    expect(r).toMatchObject({ name: 'Idris Trevanion', aliases: ['I. Trevanion'], urls: ['https://trevanion.example/'], handles: ['itrevanion'] });
  });

  it('a missing entity is nothing', () => {
    expect(readEntity(EntitySchema.parse({ id: 'Q404', missing: '' }))).toBeNull();
  });
});
