import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClaimReview } from '../core/demo/claimreview.ts';
import { parseFte } from '../core/demo/fte.ts';
import { parseLiar } from '../core/demo/liar.ts';
import { parsePromises } from '../core/demo/promises.ts';
import { CLAIMREVIEW_TEXT, LIAR_RATINGS, PROMISE_STATUSES } from '../core/demo/ratings.ts';
import { statementOf, type DemoRow } from '../core/demo/rows.ts';
import type { FetchedDocument } from '../core/providers/types.ts';
import { judgeStatement, pipelineClaim } from '../jobs/demo-judge.ts';
import type { AssessTask } from '../jobs/pipeline/cpu-worker.ts';
import { SHARED_DATA } from './helpers/shared-data.ts';

// The machine judges a demo claim without seeing its published outcome. What
// reaches the evidence search (findDocuments) and the judges (runAssess) is
// captured here, for rows of every rating of every format, and must (1) be
// the same whatever the published rating, outcome or probability, and (2)
// hold no trace of them: no field about them, and none of their values.

const DATA = SHARED_DATA;
const TODAY = '2026-11-21';
const A_DOC: FetchedDocument = { url: 'https://pellow-gazette.example/a', title: 'A', publisher: 'Pellow Gazette', published: '2024-01-01', speakers: [], text: 'The Pellow ferry runs twice a day.' };

type Captured = { findDocuments: unknown; runAssess: unknown };

/** Judges a row's statement with the real stages up to the search and the judges, which are recorded instead of run. */
async function judgeInputs(row: DemoRow): Promise<Captured> {
  const captured: Partial<Captured> = {};
  await judgeStatement(statementOf(row), {
    providers: { search: { name: 'none', search: async () => [] }, fetch: { name: 'none', fetch: async () => null } },
    today: TODAY,
    findDocuments: async (claim, _providers, limit) => {
      captured.findDocuments = { claim, limit };
      return [A_DOC];
    },
    runAssess: async (task: AssessTask) => {
      captured.runAssess = task;
      return { evidence: [], verdict: { outcome: 'unresolvable', on_time: null, rationale: 'recorded', judges_disagree: false, opinions: [] } };
    },
  });
  return captured as Captured;
}

const FORBIDDEN_KEYS = /"(publisher_rating|published_outcome|forecast_probability|reference_url|probwin|probwin_outcome|status|status_info|reviewRating|rating|alternateName)"\s*:/i;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every string in the captured inputs except the fixed test, which is the method's own wording (checked by (1)). */
function strings(v: unknown, out: string[] = [], key = ''): string[] {
  if (typeof v === 'string') {
    if (key !== 'resolution_criteria') out.push(v);
  } else if (Array.isArray(v)) v.forEach((x) => strings(x, out, key));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, out, k);
  return out;
}

/** What of a row's published verdict can be found in what the judge was given. */
function leaks(row: DemoRow, captured: Captured): string[] {
  const json = JSON.stringify(captured);
  const found: string[] = [];
  if (FORBIDDEN_KEYS.test(json)) found.push(`a field ${FORBIDDEN_KEYS.exec(json)![1]}`);
  const needles = [row.publisher_rating, row.published_outcome, row.forecast_probability === null ? null : String(row.forecast_probability)].filter((x): x is string => !!x);
  for (const s of strings(captured)) {
    for (const n of needles) if (new RegExp(`(^|[^\\p{L}\\p{N}_.])${escape(n)}($|[^\\p{L}\\p{N}_])`, 'iu').test(s)) found.push(`"${n}" in "${s.slice(0, 80)}"`);
  }
  if (row.reference_url && json.includes(row.reference_url)) found.push('the review URL');
  return found;
}

// Rows of every rating: the same statement (same id, quote, speaker) under each rating of each format.
const liarRow = (label: string) => parseLiar(['301.json', label, 'Pellow ferries carried 41,000 passengers in June 2024.', 'transport', 'orla-vantreece', 'Harbour master', 'Pellow', 'none', '9', '9', '9', '9', '9', 'a radio interview'].join('\t')).rows[0]!;
const reviewRow = (alternateName: string, ratingValue: number | undefined) => parseClaimReview(JSON.stringify({
  '@type': 'ClaimReview', url: 'https://pellow-factcheck.example/checks/301', datePublished: '2024-07-10', claimReviewed: 'Pellow ferries carried 41,000 passengers in June 2024.',
  itemReviewed: { author: { '@type': 'Person', name: 'Orla Vantreece' }, datePublished: '2024-07-05' },
  reviewRating: { alternateName, ...(ratingValue === undefined ? {} : { ratingValue, bestRating: 5, worstRating: 1 }) },
})).rows[0]!;
const promiseRow = (status: string) => parsePromises(JSON.stringify({ subject: 'Orla Vantreece', promises: [{
  title: 'Open a night ferry to Calder by 2026', url: 'https://pellow-tracker.example/night-ferry/', status, status_info: `Volunteers marked it ${status}.`,
  sources: ['https://web.archive.org/web/20240301000000/https://orla-vantreece.example/plan'],
}] })).rows[0]!;
const forecastRow = (p: string, won: string) => parseFte([
  'year,office,state,special,election_date,forecast_date,forecast_type,party,candidate,projected_voteshare,actual_voteshare,probwin,probwin_outcome',
  `2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,Orla Vantreece,51,52,${p},${won}`,
].join('\n')).rows[0]!;

const FAMILIES: Record<string, DemoRow[]> = {
  liar: Object.keys(LIAR_RATINGS).map(liarRow),
  claimreview: [...Object.keys(CLAIMREVIEW_TEXT).map((t) => reviewRow(t, undefined)), reviewRow('Misleading', 2), reviewRow('Unproven', undefined), reviewRow('', 5)],
  promises: Object.keys(PROMISE_STATUSES).map((s) => promiseRow(s.replace(/\b\w/, (c) => c.toUpperCase()))),
  fte: [forecastRow('.83', '1'), forecastRow('.83', '0'), forecastRow('.07', '1'), forecastRow('0', '0'), forecastRow('.5', '1')],
};

describe('the judge never sees the published outcome', () => {
  for (const [format, rows] of Object.entries(FAMILIES)) {
    it(`${format}: rows of every rating (${rows.length}) hand the judge exactly the same input`, async () => {
      // Every family really does span its ratings (the parsers kept each row).
      expect(new Set(rows.map((r) => `${r.publisher_rating}|${r.published_outcome}|${r.forecast_probability}`)).size).toBe(rows.length);
      const inputs = await Promise.all(rows.map(judgeInputs));
      for (const i of inputs) expect(i.findDocuments && i.runAssess).toBeTruthy();
      const first = JSON.stringify(inputs[0]);
      for (const i of inputs) expect(JSON.stringify(i)).toBe(first);
      // The statement itself is the same object whatever the rating.
      for (const r of rows) expect(statementOf(r)).toEqual(statementOf(rows[0]!));
    });

    it(`${format}: no field about the rating, and neither the rating, its outcome nor a probability anywhere in the input`, async () => {
      for (const row of rows) expect({ rating: row.publisher_rating, leaks: leaks(row, await judgeInputs(row)) }).toEqual({ rating: row.publisher_rating, leaks: [] });
    });
  }

  it('the check finds a leak when there is one (a quote carrying its rating, a task carrying the outcome)', async () => {
    const row = liarRow('pants-fire');
    const leaky = { ...row, quote: `${row.quote} (rated pants-fire)` };
    expect(leaks(leaky, await judgeInputs(leaky))).not.toEqual([]);
    const clean = await judgeInputs(row);
    expect(leaks(row, { ...clean, runAssess: { ...(clean.runAssess as object), published_outcome: 'false' } })).not.toEqual([]);
    const forecast = forecastRow('.83', '1');
    expect(leaks(forecast, { ...clean, findDocuments: { note: 'p=0.83' } })).not.toEqual([]);
  });

  it('real LIAR rows: the statement and the claim built from it do not change when the rating does', () => {
    const rows = parseLiar(readFileSync(path.join(DATA, 'liar_valid.tsv'), 'utf8'), { limit: 40 }).rows;
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      const base = JSON.stringify(pipelineClaim(statementOf(row)));
      for (const [label, outcome] of Object.entries(LIAR_RATINGS)) {
        const other = { ...row, publisher_rating: label, published_outcome: outcome };
        expect(JSON.stringify(pipelineClaim(statementOf(other)))).toBe(base);
      }
      expect(JSON.stringify(statementOf(row))).not.toMatch(FORBIDDEN_KEYS);
    }
  });
});
