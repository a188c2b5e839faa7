import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PoolClient } from '../../core/db/pool.ts';
import { latestWholeRecordSubjects } from '../../core/reports/repository.ts';
import { readExportManifests } from '../../core/site/exports.ts';
import { clientDir, newBuildId, readCurrent, type BuildManifest } from '../../core/site/layout.ts';
import {
  INDEX_LATEST, common, indexPage, letterOf, loadSummaries, methodologyPages, pageFile, pagePath, pageRefOf, reportPages, subjectPage,
  type BrowseEntry, type IndexPage, type PageData,
} from '../../core/site/page-data.ts';
import { rendererFor } from '../../core/site/renderer.ts';
import { planLetter } from './browse.ts';
import { changesSince } from './changes.ts';
import { DATA_DIR, Journal } from './journal.ts';
import { stageSitemapAdditions } from './sitemap.ts';

/**
 * An incremental build: the changes since the live version (jobs/site/changes.ts)
 * turned into the few pages they touch, rendered with the live version's
 * renderer and published in place (jobs/site/journal.ts). Nothing here reads
 * the whole site or the whole database:
 *
 * - a changed report: its page (from the database), its subject's page (that
 *   subject's reports), the browse page its subject is on (jobs/site/browse.ts:
 *   from the letter's page data as the live version left it, with the
 *   changed subjects put in; the next pages when the cutting moves, the
 *   whole letter when its number of pages changes), and the index (its
 *   counts and letters carried from the live version's, its newest reports
 *   read by a LIMIT query);
 * - a reply or review on a published claim: that report's page;
 * - a new measurement: the measurement page;
 * - the sitemap: its tail (jobs/site/sitemap.ts).
 *
 * The page data of the index and of each browse page is kept beside the
 * pages (`data/`, not public), written by the full build and replaced by
 * each incremental one. Publishing one new report so costs its own pages,
 * whatever the number of reports (measured: scripts/bench-site.ts).
 */

type Live = NonNullable<Awaited<ReturnType<typeof readCurrent>>>;
type SiteOptions = { siteDir: string; siteUrl: string | null };

export type IncrementalPlan = {
  snapshot: string;
  pages: PageData[];
  /** Page data to keep for the next build, by path under the build folder. */
  data: [string, unknown][];
  /** Site paths of pages the live version does not have. */
  added_paths: string[];
  /** Reports published for the first time. */
  added: string[];
  measurement_at: string | null;
  total: number;
};

const exists = (p: string) => lstat(p).then(() => true, () => false);
const INDEX_DATA = `${DATA_DIR}/index.json`;

async function readData<T>(dir: string, rel: string): Promise<T | null> {
  return readFile(path.join(dir, rel), 'utf8').then((t) => JSON.parse(t) as T, () => null);
}

/** What changed since the live version, as pages; null: nothing; 'full': only a full build can say. */
export async function planIncremental(tx: PoolClient, o: SiteOptions, live: Live): Promise<IncrementalPlan | null | 'full'> {
  const m = live.manifest;
  if (!m.db_snapshot) return 'full';
  const index = await readData<IndexPage>(live.dir, INDEX_DATA);
  if (!index) return 'full';
  const ch = await changesSince(tx, m.db_snapshot);
  if (ch.removed) return 'full';
  if (ch.reports.length === 0 && ch.repliedReports.length === 0 && ch.measurementAt === m.measurement_at) return null;

  const c = common();
  const client = clientDir(live.dir);
  const published = async (ref: Parameters<typeof pageFile>[0]) => exists(path.join(client, pageFile(ref)));
  const changedIds = ch.reports.map((r) => r.id);
  const pages: PageData[] = await reportPages(tx, [...new Set([...changedIds, ...ch.repliedReports])], c, o.siteUrl);
  // Replies and reviews re-render published pages only (a report never published waits for its own build).
  const added: string[] = [];
  for (const id of changedIds) if (!(await published({ view: 'report', key: id }))) added.push(id);
  const data: [string, unknown][] = [];
  const addedPaths = added.map((id) => pagePath({ view: 'report', key: id }));
  let total = m.pages + added.length;

  if (ch.reports.length > 0) {
    const subjectIds = [...new Set(ch.reports.map((r) => r.subject_id))];
    const latestIds = await latestWholeRecordSubjects(tx, INDEX_LATEST);
    const sum = await loadSummaries(tx, { subjectIds: [...new Set([...subjectIds, ...latestIds])] });
    const counts = { ...index.counts, reports: index.counts.reports + added.length };
    const letters = new Map(index.letters.map((l) => [l.letter, l.count]));
    const byLetter = new Map<string, BrowseEntry[]>();
    for (const s of subjectIds) {
      const page = subjectPage(sum, s, c);
      if (!page) continue;
      pages.push(page);
      if (!(await published({ view: 'subject', key: s }))) {
        counts.subjects++;
        total++;
        addedPaths.push(page.path);
      }
      // Browsed by its headline: a subject with reports on single topics only has none, and no browse entry.
      if (!page.latest) continue;
      const { aliases: _a, ...subject } = page.subject;
      const letter = letterOf(subject.name);
      byLetter.set(letter, [...(byLetter.get(letter) ?? []), { subject, latest: page.latest }]);
    }
    for (const [letter, entries] of byLetter) {
      const browse = await planLetter(live.dir, letter, entries, c);
      if (browse === 'full') return 'full';
      pages.push(...browse.pages);
      data.push(...browse.data);
      addedPaths.push(...browse.added_paths);
      total += browse.added_paths.length;
      letters.set(letter, browse.count);
    }
    const exports = await readExportManifests(path.join(client, 'exports'));
    const home = indexPage(sum, c, exports[0] ?? null, { counts, letters });
    pages.push(home);
    data.push([INDEX_DATA, home]);
  }
  if (ch.measurementAt !== m.measurement_at) pages.push((await methodologyPages(tx, c))[1]);
  return { snapshot: ch.snapshot, pages, data, added_paths: addedPaths, added, measurement_at: ch.measurementAt, total };
}

export type IncrementalResult = { manifest: BuildManifest; rendered: number; added: string[]; phases: Record<string, number> };

/** Renders a plan and stages it beside the live folder, ready to commit. Any failure removes what was staged. */
export async function stageIncremental(o: SiteOptions, live: Live, plan: IncrementalPlan): Promise<Journal> {
  const renderer = await rendererFor(live.dir, live.manifest);
  const journal = await Journal.open(live.dir, newBuildId());
  try {
    for (const page of plan.pages) await journal.writeSiteFile(path.join('client', pageFile(pageRefOf(page))), await renderer.render(page));
    for (const [rel, value] of plan.data) await journal.writeFile(rel, JSON.stringify(value));
    await stageSitemapAdditions(journal, clientDir(live.dir), plan.added_paths, o.siteUrl);
    return journal;
  } catch (err) {
    await journal.abort();
    throw err;
  }
}

/** The manifest of the version a staged plan publishes. */
export function versionManifest(live: Live, plan: IncrementalPlan, id: string, ms: number): BuildManifest {
  return {
    ...live.manifest,
    build_id: id, kind: 'incremental', built_at: new Date().toISOString(), based_on: live.manifest.build_id,
    db_snapshot: plan.snapshot, measurement_at: plan.measurement_at, pages: plan.total, rendered: plan.pages.length, ms: Math.round(ms),
  };
}

/** Renders and publishes a plan in the live folder. Before the commit point any failure leaves the live site as it was. */
export async function publishIncremental(o: SiteOptions, live: Live, plan: IncrementalPlan, t0: number): Promise<IncrementalResult> {
  const tRender = performance.now();
  const journal = await stageIncremental(o, live, plan);
  const tCommit = performance.now();
  const manifest = versionManifest(live, plan, journal.id, tCommit - t0);
  await journal.commit(manifest);
  return {
    manifest, rendered: plan.pages.length, added: plan.added,
    phases: { render_and_stage: Math.round(tCommit - tRender), commit: Math.round(performance.now() - tCommit) },
  };
}
