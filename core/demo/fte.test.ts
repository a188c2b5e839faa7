import { describe, expect, it } from 'vitest';
import { forecastQuote, forecastTime, parseFte } from './fte.ts';

// Invented races in FiveThirtyEight's checking-our-work layout.
const DAILY_HEADER = 'year,office,state,special,election_date,forecast_date,forecast_type,party,candidate,projected_voteshare,actual_voteshare,probwin,probwin_outcome';
const daily = [
  DAILY_HEADER,
  // Race 1: three models over two days, and a forecast after election day (never taken).
  '2030,Governor,ZZ,false,2030-11-05,2030-11-04,deluxe,D,Orla Vantreece,51,52,.6,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-04,deluxe,R,Tamsin Okoro,49,48,.4,0',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,Orla Vantreece,51,52,.7,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,R,Tamsin Okoro,49,48,.3,0',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,classic,D,Orla Vantreece,51,52,.9,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,classic,R,Tamsin Okoro,49,48,.1,0',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-06,deluxe,D,Orla Vantreece,51,52,.99,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-06,deluxe,R,Tamsin Okoro,49,48,.01,0',
  // Race 2: only the unnamed model, no candidate names, and a quoted field.
  '2026,Governor,YY,"",2026-11-03,2026-11-03,"",D,"","","",0.2,1',
  '2026,Governor,YY,"",2026-11-03,2026-11-03,"",R,"","","",0.8,0',
].join('\n');

const LIVE = [
  'year,office,state,district,election_date,forecast_date,forecast_type,party,candidate,projected_voteshare,actual_voteshare,probwin,probwin_outcome',
  '2028,President,ZZ,2,2028-11-07,2028-11-07 21:00:00 -0500,live,D,Vantreece,,50,0.9,1',
  '2028,President,ZZ,2,2028-11-07,2028-11-07 21:00:00 -0500,live,R,Okoro,,50,0.1,0',
  '2028,President,ZZ,2,2028-11-07,2028-11-07 19:00:01 -0500,live,D,Vantreece,,50,0.55,1',
  '2028,President,ZZ,2,2028-11-07,2028-11-07 19:00:01 -0500,live,R,Okoro,,50,0.45,0',
].join('\r\n');

describe('parseFte', () => {
  it('daily files: one model (deluxe before classic), its last forecast on or before election day, one claim per candidate', () => {
    const r = parseFte(daily);
    expect(r.problems).toEqual([]);
    expect(r.read).toBe(10);
    expect(r.rows.map((x) => [x.quote, x.forecast_probability, x.publisher_rating, x.published_outcome, x.date])).toEqual([
      ['Orla Vantreece (D) will win the 2030 Governor election in ZZ, held on 2030-11-05.', 0.7, 'won', 'true', '2030-11-05'],
      ['Tamsin Okoro (R) will win the 2030 Governor election in ZZ, held on 2030-11-05.', 0.3, 'lost', 'false', '2030-11-05'],
      ['The Democratic candidate will win the 2026 Governor election in YY, held on 2026-11-03.', 0.2, 'won', 'true', '2026-11-03'],
      ['The Republican candidate will win the 2026 Governor election in YY, held on 2026-11-03.', 0.8, 'lost', 'false', '2026-11-03'],
    ]);
    expect(r.rows[0]).toMatchObject({ dataset: 'fte-governors', subject: { name: 'FiveThirtyEight', kind: 'outlet' }, date_basis: 'stated', source_url: null, reference_url: null });
    // The probability is never in the claim's wording.
    for (const x of r.rows) expect(x.quote).not.toContain(String(x.forecast_probability).replace(/^0/, ''));
  });

  it('election-night files: the first forecast of the night, made before votes were counted', () => {
    const r = parseFte(LIVE);
    expect(r.rows.map((x) => [x.quote, x.forecast_probability])).toEqual([
      ['Vantreece (D) will win the 2028 President election in ZZ district 2, held on 2028-11-07.', 0.55],
      ['Okoro (R) will win the 2028 President election in ZZ district 2, held on 2028-11-07.', 0.45],
    ]);
    expect(r.rows[0]!.dataset).toBe('fte-president');
  });

  it('bad rows are reported and skipped; missing columns refuse the file; --limit counts claims', () => {
    const bad = [DAILY_HEADER,
      '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,A,1,1,1.5,1',
      '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,A,1,1,.5,yes',
      '2030,Governor,ZZ,false,2030-11-05,someday,deluxe,D,A,1,1,.5,1',
      '2030,Governor,ZZ,false',
      '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,A,1,1,.5,1',
    ].join('\n');
    const r = parseFte(bad);
    expect(r.rows).toHaveLength(1);
    expect(r.problems.map((p) => [p.line, p.message.split(' ')[0]])).toEqual([[2, 'probwin'], [3, 'probwin_outcome'], [4, 'forecast_date'], [5, 'expected']]);
    expect(parseFte('year,office\n2030,Governor').problems[0]!.message).toMatch(/missing columns: state/);
    expect(parseFte(daily, { limit: 3 }).rows).toHaveLength(3);
    expect(parseFte(daily, { dataset: 'fte-test', subject: 'Pellow Forecasts', kind: 'organisation' }).rows[0]).toMatchObject({ dataset: 'fte-test', subject: { name: 'Pellow Forecasts', kind: 'organisation' } });
  });

  it('forecastTime reads dates and offset timestamps; forecastQuote names special elections', () => {
    expect(forecastTime('2016-11-08 16:00:00 -0500')).toBe(Date.parse('2016-11-08T21:00:00Z'));
    expect(forecastTime('2022-11-08')).toBe(Date.parse('2022-11-08T00:00:00Z'));
    expect(forecastTime('2022-02-30')).toBeNaN();
    expect(forecastQuote({ year: '2030', office: 'Senate', state: 'ZZ', special: 'true', election_date: '2030-11-05', party: 'G', candidate: '' }))
      .toBe('The Green candidate will win the 2030 Senate special election in ZZ, held on 2030-11-05.');
  });
});
