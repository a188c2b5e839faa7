import { csvObjects } from './csv.ts';
import { forecastOutcome } from './ratings.ts';
import { isIsoDate, type DemoRow, type ParseOptions, type ParseResult } from './rows.ts';

/**
 * FiveThirtyEight's published forecasts beside the results
 * (fivethirtyeight/checking-our-work-data): CSV with a header; per candidate
 * and race, `probwin` (the forecast probability of winning) and
 * `probwin_outcome` (1 won, 0 lost), with `forecast_date` and `forecast_type`.
 *
 * One claim per candidate and race: "<candidate> will win the <year> <office>
 * election in <state>, held on <date>", made by the forecaster (the subject,
 * FiveThirtyEight), with the published probability; its published outcome is
 * `true` if the candidate won, `false` if not. A race has many forecasts; one
 * is taken, by a fixed rule:
 * - election-night files (`forecast_type` live): the first forecast of the
 *   night, the one made before any votes were counted (later ones have seen
 *   results);
 * - daily forecasts: one model, the first present of deluxe, classic, lite,
 *   and the unnamed type, then its last forecast dated on or before election
 *   day.
 * The probability is stored beside the claim, never in the claim's wording:
 * the judge sees who is forecast to win what, and when.
 */

const REQUIRED = ['year', 'office', 'state', 'election_date', 'forecast_date', 'forecast_type', 'party', 'candidate', 'probwin', 'probwin_outcome'];
const TYPE_PREFERENCE = ['deluxe', 'classic', 'lite', ''];
const PARTIES: Readonly<Record<string, string>> = { D: 'Democratic', R: 'Republican', I: 'independent', L: 'Libertarian', G: 'Green' };
const DATASETS: Readonly<Record<string, string>> = { governor: 'fte-governors', senate: 'fte-senate', president: 'fte-president', house: 'fte-house' };

type Row = { line: number; v: Record<string, string>; at: number; day: string; p: number };

/** "2016-11-08 16:00:00 -0500" or "2022-11-08" → ms since the epoch. */
export function forecastTime(s: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?)\s*([+-]\d{2}):?(\d{2})?)?$/.exec(s.trim());
  if (!m || !isIsoDate(m[1])) return NaN;
  if (!m[2]) return Date.parse(`${m[1]}T00:00:00Z`);
  return Date.parse(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}${m[3]}:${m[4] ?? '00'}`);
}

export function forecastQuote(v: Record<string, string>): string {
  const party = v.party?.trim() ?? '';
  const who = v.candidate?.trim()
    ? `${v.candidate.trim()}${party ? ` (${party})` : ''}`
    : `The ${PARTIES[party] ?? party} candidate`;
  const district = v.district?.trim() ? ` district ${v.district.trim()}` : '';
  const special = v.special?.trim().toLowerCase() === 'true' ? ' special' : '';
  return `${who} will win the ${v.year} ${v.office}${special} election in ${v.state}${district}, held on ${v.election_date}.`;
}

export function parseFte(text: string, opts: ParseOptions = {}): ParseResult {
  const result: ParseResult = { rows: [], problems: [], read: 0, title: 'FiveThirtyEight forecasts (checking-our-work data)' };
  const { header, rows } = csvObjects(text);
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) {
    result.problems.push({ line: 1, message: `missing columns: ${missing.join(', ')}` });
    return result;
  }
  const races = new Map<string, Row[]>();
  const offices = new Set<string>();
  for (const r of rows) {
    result.read++;
    const v = Object.fromEntries(Object.entries(r.values).map(([k, x]) => [k, x.trim()]));
    const p = v.probwin === '' ? NaN : Number(v.probwin);
    const at = forecastTime(v.forecast_date ?? '');
    const problem = r.width !== header.length ? `expected ${header.length} columns, found ${r.width}`
      : !(p >= 0 && p <= 1) ? `probwin "${v.probwin}" is not a probability`
      : !forecastOutcome(v.probwin_outcome ?? '') ? `probwin_outcome "${v.probwin_outcome}" is not 0 or 1`
      : !isIsoDate(v.election_date) ? `election_date "${v.election_date}" is not a date`
      : Number.isNaN(at) ? `forecast_date "${v.forecast_date}" is not a date`
      : !v.year || !v.office || !v.state ? 'no year, office or state'
      : !v.candidate && !v.party ? 'neither candidate nor party'
      : null;
    if (problem) {
      result.problems.push({ line: r.line, message: problem });
      continue;
    }
    offices.add(v.office!.toLowerCase());
    const race = [v.year, v.office, v.state, v.district ?? '', v.special ?? '', v.election_date].join('|');
    const list = races.get(race) ?? [];
    list.push({ line: r.line, v, at, day: v.forecast_date!.slice(0, 10), p });
    races.set(race, list);
  }
  const only = offices.size === 1 ? [...offices][0]! : null;
  const dataset = opts.dataset ?? (only ? DATASETS[only] ?? `fte-${only.replace(/[^a-z0-9]+/g, '-')}` : 'fte');
  const subject = { name: (opts.subject ?? 'FiveThirtyEight').slice(0, 300), kind: opts.kind ?? 'outlet' } as const;

  for (const [race, list] of races) {
    if (opts.limit !== undefined && result.rows.length >= opts.limit) break;
    const election = list[0]!.v.election_date!;
    let chosen: Row[];
    if (list.some((r) => r.v.forecast_type === 'live')) {
      const live = list.filter((r) => r.v.forecast_type === 'live');
      const firstAt = Math.min(...live.map((r) => r.at));
      chosen = live.filter((r) => r.at === firstAt);
    } else {
      const types = new Set(list.map((r) => r.v.forecast_type ?? ''));
      const type = TYPE_PREFERENCE.find((t) => types.has(t)) ?? [...types].sort()[0]!;
      const before = list.filter((r) => (r.v.forecast_type ?? '') === type && r.day <= election);
      if (before.length === 0) {
        result.problems.push({ line: list[0]!.line, message: `race ${race}: no ${type || 'unnamed'} forecast dated on or before election day` });
        continue;
      }
      const lastAt = Math.max(...before.map((r) => r.at));
      chosen = before.filter((r) => r.at === lastAt);
    }
    const seen = new Set<string>();
    for (const r of chosen) {
      if (opts.limit !== undefined && result.rows.length >= opts.limit) break;
      const who = r.v.candidate || `party:${r.v.party}`;
      const sourceId = `${race}|${r.v.party}|${who}`;
      if (seen.has(sourceId)) {
        result.problems.push({ line: r.line, message: `race ${race}: ${who} forecast twice at the same time; the first is kept` });
        continue;
      }
      seen.add(sourceId);
      const won = forecastOutcome(r.v.probwin_outcome!)!;
      result.rows.push({
        dataset,
        source_id: sourceId,
        subject,
        quote: forecastQuote(r.v),
        date: r.day,
        date_basis: 'stated',
        source_url: null,
        reference_url: null,
        publisher_rating: won === 'true' ? 'won' : 'lost',
        published_outcome: won,
        forecast_probability: r.p,
      });
    }
  }
  return result;
}
