import type { Queryable } from '../db/pool.ts';
import { latestMeasurement, measurementNote } from '../methodology.ts';
import { latestOfEach } from '../reports/repository.ts';
import { BEST_RATING, WORST_RATING, ratingScale } from './claim-review.ts';
import { browseLetters, browsePageCount, letterLabel } from './browse-pages.ts';
import type { ExportManifest } from './exports.ts';
import type { Common, ExportsPage, IndexPage, MeasurementPage, MethodologyPage, RatingScalePage } from './page-data.ts';
import { SINGLE_VIEWS, pagePath } from './page-paths.ts';
import type { Summaries } from './summaries.ts';

/** The site's single pages: the index, the methodology pages and the exports page. */

export const INDEX_LATEST = 20;

/**
 * `totals`: the site's counts and browse letters, when `sum` holds only some
 * subjects (an incremental build: the subjects of the newest reports, with
 * the counts carried from the live version's index).
 */
export function indexPage(sum: Summaries, c: Common, latestExport: ExportManifest | null, totals?: { counts: IndexPage['counts']; letters: Map<string, number> }): IndexPage {
  const letters = [...(totals?.letters ?? browseLetters(sum))].sort(([a], [b]) => (a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b)));
  return {
    view: 'index', path: '/', common: c, counts: totals?.counts ?? { subjects: sum.subjects.size, reports: sum.reports.length },
    // The subjects with the newest headlines, each once with its headline (its latest report on the whole record): a score listed by a subject's
    // name is its headline, so older reports and reports on one topic are on subject pages only.
    latest: [...latestOfEach(sum.reports, null).values()].slice(0, INDEX_LATEST).flatMap((r) => {
      const s = sum.subjects.get(r.subject_id);
      return s ? [{ ...r, subject: { subject_id: s.subject_id, name: s.name, kind: s.kind, description: s.description, path: s.path } }] : [];
    }),
    letters: letters.map(([letter, count]) => ({ letter, label: letterLabel(letter), path: pagePath({ view: 'browse', key: letter }), count })),
    latest_export: latestExport,
  };
}

export async function methodologyPages(db: Queryable, c: Common): Promise<[MethodologyPage, MeasurementPage, RatingScalePage]> {
  const m = await latestMeasurement(db);
  return [
    { view: 'methodology', path: pagePath({ view: 'methodology' }), common: c },
    { view: 'measurement', path: pagePath({ view: 'measurement' }), common: c, measurement: m, note: measurementNote(m) },
    { view: 'rating-scale', path: pagePath({ view: 'rating-scale' }), common: c, best: BEST_RATING, worst: WORST_RATING, scale: ratingScale() },
  ];
}

export function exportsPage(exports: ExportManifest[], c: Common): ExportsPage {
  return { view: 'exports', path: pagePath({ view: 'exports' }), common: c, exports };
}

/** Pages a site of these summaries holds: one per report and subject, each browse page, and the five others. */
export function pageCount(sum: Summaries): number {
  return sum.reports.length + sum.subjects.size + browsePageCount(sum) + SINGLE_VIEWS.length;
}
