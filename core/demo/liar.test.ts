import { describe, expect, it } from 'vitest';
import { LIAR_PUBLISHED, liarSpeakerKind, nameFromSlug, parseLiar } from './liar.ts';
import { demoClaimId, statementOf } from './rows.ts';

// Invented statements and speakers in LIAR's 14-column layout.
const line = (id: string, label: string, statement: string, speaker: string, party = 'none', counts = ['1', '2', '3', '4', '5']) =>
  [`${id}.json`, label, statement, 'transport', speaker, 'Harbour master', 'Pellow', party, ...counts, 'a radio interview'].join('\t');

const FILE = [
  line('101', 'true', 'The Pellow ferry carried 41,000 passengers in June.', 'orla-vantreece'),
  line('102', 'mostly-true', 'Pellow has 12 harbour cranes.', 'orla-vantreece'),
  line('103', 'half-true', 'Fares rose 8% last year.', 'pellow-ferry-users-association'),
  line('104', 'barely-true', 'The bridge toll doubled.', 'tamsin-okoro', 'organization'),
  line('105', 'false', 'Nobody uses the night ferry.', 'tamsin-okoro'),
  line('106', 'pants-fire', 'The ferry runs on seawater.', 'chain-email'),
].join('\r\n');

describe('parseLiar', () => {
  it('reads id, rating, statement and speaker; maps the rating; never reads the counts', () => {
    const r = parseLiar(`${FILE}\n`);
    expect(r.problems).toEqual([]);
    expect(r.read).toBe(6);
    expect(r.rows.map((x) => [x.source_id, x.publisher_rating, x.published_outcome])).toEqual([
      ['101', 'true', 'true'], ['102', 'mostly-true', 'mostly_true'], ['103', 'half-true', 'mixed'],
      ['104', 'barely-true', 'mostly_false'], ['105', 'false', 'false'], ['106', 'pants-fire', 'false'],
    ]);
    expect(r.rows[0]).toEqual({
      dataset: 'liar', source_id: '101', subject: { name: 'Orla Vantreece', kind: 'person' },
      quote: 'The Pellow ferry carried 41,000 passengers in June.', date: LIAR_PUBLISHED, date_basis: 'latest_possible',
      source_url: null, reference_url: 'https://www.politifact.com/api/v/2/statement/101/?format=json',
      publisher_rating: 'true', published_outcome: 'true', forecast_probability: null,
    });
    // The counts (which include the statement's own rating) are nowhere in a row.
    expect(JSON.stringify(r.rows)).not.toMatch(/"[1-5]"|radio interview|Harbour master/);
  });

  it('speakers: names from slugs; organisations by party or by the words of the slug', () => {
    const r = parseLiar(FILE);
    expect(r.rows.map((x) => `${x.subject.name}/${x.subject.kind}`)).toEqual([
      'Orla Vantreece/person', 'Orla Vantreece/person', 'Pellow Ferry Users Association/organisation',
      'Tamsin Okoro/organisation', 'Tamsin Okoro/person', 'Chain Email/organisation',
    ]);
    expect(nameFromSlug('ada--quill-')).toBe('Ada Quill');
    expect(liarSpeakerKind('facebook-posts', 'none')).toBe('organisation');
    expect(liarSpeakerKind('ada-quill', 'government-body')).toBe('organisation');
    expect(liarSpeakerKind('ada-quill', 'democrat')).toBe('person');
  });

  it('--limit, --dataset and --said-on', () => {
    const r = parseLiar(FILE, { limit: 2, dataset: 'liar-valid', saidOn: '2016-01-01' });
    expect(r.rows).toHaveLength(2);
    expect(r.read).toBe(2);
    expect(r.rows.every((x) => x.dataset === 'liar-valid' && x.date === '2016-01-01')).toBe(true);
  });

  it('reports malformed lines with their numbers and keeps the rest', () => {
    const bad = [
      line('201', 'true', 'Pellow opened a lido in 2019.', 'orla-vantreece'),
      'only\tthree\tcolumns',
      line('202', 'misleading', 'A rating LIAR does not have.', 'orla-vantreece'),
      line('203', 'false', '', 'orla-vantreece'),
      line('204', 'false', 'No speaker.', ''),
      line('201', 'false', 'The same id again.', 'orla-vantreece'),
    ].join('\n');
    const r = parseLiar(bad);
    expect(r.rows.map((x) => x.source_id)).toEqual(['201']);
    expect(r.problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6]);
    expect(r.problems[0]!.message).toMatch(/14 tab-separated columns, found 3/);
    expect(r.problems[1]!.message).toMatch(/not one of true, mostly-true/);
  });

  it('claim ids are stable: the same data set and statement id give the same id, another data set another', () => {
    const [a] = parseLiar(FILE).rows;
    const [b] = parseLiar(FILE).rows;
    expect(statementOf(a!).claim_id).toBe(statementOf(b!).claim_id);
    expect(statementOf(a!).claim_id).toBe(demoClaimId('liar', '101'));
    expect(demoClaimId('liar-valid', '101')).not.toBe(demoClaimId('liar', '101'));
    expect(statementOf(a!).claim_id).toMatch(/^clm_[0-9a-f]{20}$/);
  });
});
