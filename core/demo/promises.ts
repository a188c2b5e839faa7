import { PROMISE_STATUSES, promiseOutcome } from './ratings.ts';
import { isHttpUrl, isIsoDate, type DemoRow, type ParseOptions, type ParseResult } from './rows.ts';

/**
 * A promise tracker in the TrumpTracker format (`_data/data.json` of
 * trumptracker.github.io): `{"promises": [{title, description, url, status,
 * status_info, category, tags, comments, sources}]}` (a bare array is read
 * too). The promise is its `title`; `status` is the tracker's verdict.
 * `status_info` and `comments` explain the verdict, so they are never read.
 *
 * The file names no subject: `--subject` names it, else a top-level `subject`
 * field, else the tracker is known by its site (trumptracker.github.io tracks
 * Donald Trump's campaign promises).
 *
 * The file gives no dates. A promise was made by the day its earliest source
 * was archived (the `web.archive.org/web/<YYYYMMDD…>/` snapshot in its
 * sources), the latest day it can have been made; without an archived source,
 * `--said-on` gives that day, else the promise is skipped.
 */

const KNOWN_TRACKERS: Readonly<Record<string, string>> = { 'trumptracker.github.io': 'Donald Trump' };

type Promise_ = { title?: unknown; url?: unknown; status?: unknown; sources?: unknown };

/** The earliest web.archive.org snapshot among a promise's sources: its day and URL. */
function earliestArchived(sources: readonly string[]): { day: string; url: string } | null {
  const found = sources
    .map((url) => ({ url, m: /web\.archive\.org\/web\/(\d{4})(\d{2})(\d{2})\d*\//.exec(url) }))
    .filter((x): x is { url: string; m: RegExpExecArray } => x.m !== null)
    .map(({ url, m }) => ({ url, day: `${m[1]}-${m[2]}-${m[3]}` }))
    .filter((x) => isIsoDate(x.day));
  return found.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))[0] ?? null;
}

function hostOf(url: unknown): string | null {
  if (!isHttpUrl(url)) return null;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

export function parsePromises(text: string, opts: ParseOptions = {}): ParseResult {
  const dataset = opts.dataset ?? 'promises';
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { rows: [], problems: [{ line: null, message: `not valid JSON (${(err as Error).message.slice(0, 120)})` }], read: 0, title: 'a promise tracker' };
  }
  const list: unknown[] = Array.isArray(data) ? data : Array.isArray((data as { promises?: unknown })?.promises) ? (data as { promises: unknown[] }).promises : [];
  const host = list.map((p) => hostOf((p as Promise_)?.url)).find((h) => h !== null) ?? null;
  const title = host ? `the promise tracker ${host}` : 'a promise tracker';
  const result: ParseResult = { rows: [], problems: [], read: 0, title };
  if (list.length === 0) {
    result.problems.push({ line: null, message: 'no promises: expected {"promises": [...]} or an array' });
    return result;
  }
  const named = (data as { subject?: unknown }).subject;
  const subject = opts.subject ?? (typeof named === 'string' && named.trim() ? named.trim() : null) ?? (host ? KNOWN_TRACKERS[host] : undefined) ?? null;
  if (!subject) {
    result.problems.push({ line: null, message: 'the file does not say whose promises these are: name the subject with --subject' });
    return result;
  }
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    if (opts.limit !== undefined && result.rows.length >= opts.limit) break;
    result.read++;
    const p = list[i] as Promise_;
    const line = i + 1; // the promise's position in the list
    const quote = typeof p?.title === 'string' ? p.title.trim() : '';
    const status = typeof p?.status === 'string' ? p.status.trim() : '';
    const sources = Array.isArray(p?.sources) ? p.sources.filter(isHttpUrl).map((s) => s.trim()) : [];
    const outcome = promiseOutcome(status);
    const archived = earliestArchived(sources);
    const date = archived?.day ?? opts.saidOn ?? null;
    const sourceId = isHttpUrl(p?.url) ? p.url.trim() : quote;
    if (!quote) result.problems.push({ line, message: 'no title' });
    else if (!outcome) result.problems.push({ line, message: `status "${status.slice(0, 40)}" is not one of ${Object.keys(PROMISE_STATUSES).join(', ')}` });
    else if (!date) result.problems.push({ line, message: 'no date: no source archived on web.archive.org (give --said-on)' });
    else if (seen.has(sourceId)) result.problems.push({ line, message: 'the same promise is given twice; the first is kept' });
    else {
      seen.add(sourceId);
      result.rows.push({
        dataset,
        source_id: sourceId,
        subject: { name: subject.slice(0, 300), kind: opts.kind ?? 'person' },
        quote: quote.slice(0, 5000),
        date,
        date_basis: 'latest_possible',
        // Where the promise was made: the source that dates it, else its first source.
        source_url: archived?.url ?? sources[0] ?? null,
        reference_url: isHttpUrl(p.url) ? p.url.trim() : null,
        publisher_rating: status,
        published_outcome: outcome,
        forecast_probability: null,
      });
    }
  }
  return result;
}
