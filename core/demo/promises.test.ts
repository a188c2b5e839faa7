import { describe, expect, it } from 'vitest';
import { parsePromises } from './promises.ts';

// An invented tracker in the TrumpTracker layout.
const promise = (slug: string, status: string, sources: string[], over: Record<string, unknown> = {}) => ({
  title: `Pellow will ${slug.replace(/-/g, ' ')}`,
  description: '',
  url: `https://pellow-tracker.example/${slug}/`,
  status,
  status_info: `Marked ${status} by volunteers.`,
  category: 'Transport',
  tags: [],
  comments: ['https://forum.example/x'],
  sources,
  ...over,
});
const archived = (day: string, page: string) => `https://web.archive.org/web/${day}093508/https://${page}`;
const TRACKER = {
  statuses: {},
  promises: [
    promise('build-a-second-ferry-pier', 'Achieved', [archived('20190305', 'later-news.example/pier-built'), archived('20180214', 'orla-vantreece.example/plan')]),
    promise('halve-bridge-tolls', 'Compromised', [archived('20180214', 'orla-vantreece.example/plan')]),
    promise('open-a-night-ferry', 'Broken', [archived('20180301', 'pellow-radio.example/debate')]),
    promise('repave-harbour-road', 'In progress', [archived('20180214', 'orla-vantreece.example/plan')]),
    promise('add-bike-racks', 'Not started', [archived('20180214', 'orla-vantreece.example/plan')]),
  ],
};

describe('parsePromises', () => {
  it('maps statuses, dates each promise by its earliest archived source, and reads no verdict text', () => {
    const r = parsePromises(JSON.stringify(TRACKER), { subject: 'Orla Vantreece' });
    expect(r.problems).toEqual([]);
    expect(r.title).toBe('the promise tracker pellow-tracker.example');
    expect(r.rows.map((x) => [x.publisher_rating, x.published_outcome])).toEqual([
      ['Achieved', 'true'], ['Compromised', 'mixed'], ['Broken', 'false'], ['In progress', 'pending'], ['Not started', 'pending'],
    ]);
    expect(r.rows[0]).toEqual({
      dataset: 'promises', source_id: 'https://pellow-tracker.example/build-a-second-ferry-pier/',
      subject: { name: 'Orla Vantreece', kind: 'person' }, quote: 'Pellow will build a second ferry pier',
      date: '2018-02-14', date_basis: 'latest_possible',
      source_url: 'https://web.archive.org/web/20180214093508/https://orla-vantreece.example/plan',
      reference_url: 'https://pellow-tracker.example/build-a-second-ferry-pier/',
      publisher_rating: 'Achieved', published_outcome: 'true', forecast_probability: null,
    });
    expect(JSON.stringify(r.rows)).not.toMatch(/volunteers|forum\.example/);
  });

  it('the subject: --subject, else the file\'s own subject field, else a known tracker site; else nothing is imported', () => {
    expect(parsePromises(JSON.stringify({ ...TRACKER, subject: 'Tamsin Okoro' })).rows[0]!.subject.name).toBe('Tamsin Okoro');
    const unknown = parsePromises(JSON.stringify(TRACKER));
    expect(unknown.rows).toEqual([]);
    expect(unknown.problems[0]!.message).toMatch(/--subject/);
    const known = parsePromises(JSON.stringify({ promises: [promise('x', 'Broken', [archived('20161101', 'a.example/')], { url: 'https://trumptracker.github.io/x/' })] }));
    expect(known.rows[0]!.subject).toEqual({ name: 'Donald Trump', kind: 'person' });
  });

  it('a bare array, --limit, --said-on for undated promises; bad entries reported by position', () => {
    const list = [
      promise('a', 'Achieved', []),
      promise('b', 'Stalled', [archived('20180101', 'x.example/')]),
      promise('c', 'Broken', [archived('20180101', 'x.example/')], { title: '  ' }),
      promise('d', 'Broken', [archived('20180101', 'x.example/')]),
      promise('d', 'Broken', [archived('20180101', 'x.example/')]),
    ];
    const r = parsePromises(JSON.stringify(list), { subject: 'Orla Vantreece' });
    expect(r.rows.map((x) => x.source_id)).toEqual(['https://pellow-tracker.example/d/']);
    expect(r.problems.map((p) => p.line)).toEqual([1, 2, 3, 5]);
    expect(r.problems[0]!.message).toMatch(/--said-on/);
    const dated = parsePromises(JSON.stringify(list.slice(0, 1)), { subject: 'Orla Vantreece', saidOn: '2017-06-30' });
    expect(dated.rows[0]).toMatchObject({ date: '2017-06-30', source_url: null });
    expect(parsePromises(JSON.stringify(TRACKER), { subject: 'Orla Vantreece', limit: 2 }).rows).toHaveLength(2);
    expect(parsePromises('{not json', { subject: 'X' }).problems[0]!.message).toMatch(/not valid JSON/);
  });
});
