import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Pool } from '../core/db/pool.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { OUTCOMES, REVIEW_LABEL, type Outcome } from '../core/method/outcomes.ts';
import { methodVersion } from '../core/method/version.ts';
import { claimIdFor } from '../core/reports/ids.ts';
import { storeReport, type StoredClaim } from '../core/reports/store.ts';

/**
 * Factories for the static-site suites: subjects and stored reports written
 * straight into the database (no research run), with claims whose every
 * field a test may set, hostile text included; and replies inserted as the
 * responses route stores them.
 */

export const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

export async function tempDataDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `rss-${label}-`));
  await chmod(dir, 0o755);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function addSubject(pool: Pool, name: string, kind: 'person' | 'organisation' | 'outlet' = 'organisation', description: string | null = 'TEST DATA: an invented subject.'): Promise<string> {
  const id = subjectIdFor(kind, name);
  await pool.query(
    `INSERT INTO subjects (id, name, kind, description, name_keys) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [id, name, kind, description, [name.toLowerCase()]],
  );
  return id;
}

export type ClaimOverrides = Partial<StoredClaim> & Record<string, unknown>;

export function fakeClaim(subjectId: string, i: number, over: ClaimOverrides = {}): StoredClaim {
  const quote = (over.quote as string | undefined) ?? `We delivered ${100 + i} new homes across the district in 2025.`;
  const source = (over.source as { url: string } | undefined) ?? { url: `https://news.example/${subjectId}/${i}`, title: `Annual update ${i}`, outlet: 'The Test Courier', published: '2026-01-15' };
  return {
    claim_id: claimIdFor(subjectId, source.url, quote),
    claim_type: ['factual', 'promise', 'guidance', 'prediction'][i % 4]!,
    topic: 'housing',
    quote,
    quote_verified: i % 3 !== 0,
    said_on: `2026-01-${String((i % 27) + 1).padStart(2, '0')}`,
    source,
    resolution_criteria: `True if an independent source reports ${100 + i} homes delivered in 2025, within 2%.`,
    due: i % 4 === 1 ? '2027-12-31' : null,
    outcome: OUTCOMES[i % OUTCOMES.length] as Outcome,
    on_time: i % 4 === 1 ? i % 8 === 1 : null,
    rationale: `The statistics office reports ${100 + i} homes for 2025, so the claim is judged by its fixed test.`,
    evidence: [
      { url: `https://stats.example/housing/${i}`, publisher: 'Valley Statistics Office', published: '2026-02-01', quote: `Homes completed in 2025: ${100 + i}.`, independent_of_subject: true },
    ],
    judges_disagree: i % 5 === 4,
    ...over,
  };
}

export type FakeReport = {
  name: string; kind?: 'person' | 'organisation' | 'outlet'; description?: string | null; claims?: number; claim?: (i: number, subjectId: string) => ClaimOverrides; score?: number;
  /** The topic the report is on (null or absent: the whole record). */
  topic?: string | null;
};

const entry = (score: number, n: number) => ({
  score,
  interval_80: [Math.max(0, Math.round((score - 12) * 10) / 10), Math.min(100, Math.round((score + 9) * 10) / 10)] as [number, number],
  n_resolved: n,
  confidence: { level: n >= 10 ? 'medium' : 'low', reasons: `${n >= 10 ? 'Medium' : 'Low'}: ${n} resolved claims.` },
});

/** Stores a finished report for a (new or known) subject; returns its id. */
export async function storeFakeReport(pool: Pool, r: FakeReport): Promise<{ reportId: string; subjectId: string; claims: StoredClaim[] }> {
  const kind = r.kind ?? 'organisation';
  const subjectId = await addSubject(pool, r.name, kind, r.description === undefined ? 'TEST DATA: an invented subject.' : r.description);
  const claims = Array.from({ length: r.claims ?? 6 }, (_, i) => fakeClaim(subjectId, i, r.claim?.(i, subjectId)));
  const resolved = claims.filter((c) => ['true', 'mostly_true', 'mixed', 'mostly_false', 'false'].includes(c.outcome));
  const score = r.score ?? 61.5;
  const report = {
    subject: { subject_id: subjectId, name: r.name, kind, aliases: [], description: r.description === undefined ? 'TEST DATA: an invented subject.' : r.description, public_figure: true, serving_politician: false, demo: false },
    method_version: methodVersion(),
    score: { ...entry(score, resolved.length), confidence: resolved.length >= 10 ? 'medium' : 'low' },
    scores: { overall: entry(score, resolved.length), factual: entry(Math.min(100, score + 5), Math.ceil(resolved.length / 2)), promise: entry(Math.max(0, score - 10), Math.floor(resolved.length / 2)) },
    featured_claims: resolved.slice(0, 2).map((c) => ({ claim_id: c.claim_id, claim_type: c.claim_type, quote: c.quote, said_on: c.said_on, outcome: c.outcome, credit: 0.5, why_featured: 'low_credit' })),
    caveats: [{ code: 'machine_generated', message: `Every outcome was set by machine judges and no person has reviewed them (${REVIEW_LABEL}).` }],
    review_status: REVIEW_LABEL,
  };
  const { reportId } = await storeReport(pool, { subjectId, methodVersion: methodVersion(), depth: 'quick', topic: r.topic ?? null, report, claims });
  return { reportId, subjectId, claims };
}

/** A reply as POST /v1/responses stores it (migration 006's table). */
export async function storeReply(pool: Pool, claimId: string, subjectId: string, r: { name: string; role?: string | null; statement: string; counter_evidence_url?: string | null }): Promise<string> {
  const id = `rsp_${randomBytes(10).toString('hex')}`;
  await pool.query(
    `INSERT INTO responses (id, claim_id, subject_id, name, role, statement, counter_evidence_url) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, claimId, subjectId, r.name, r.role ?? null, r.statement, r.counter_evidence_url ?? null],
  );
  return id;
}

export const HOSTILE = {
  name: 'Evil <img src=x onerror="window.__xss=1"> & "Co"',
  description: '<script>window.__xss=2</script>',
  quote: 'He said "</script><script>window.__xss=3</script>" & left <!-- here\u2028and \u2029 there',
  sourceUrl: 'javascript:window.__xss=4',
  sourceTitle: '<b>bold</b> title',
  evidenceUrl: 'data:text/html,<script>window.__xss=5</script>',
  evidencePublisher: '<svg onload=window.__xss=6>',
  rationale: '</dd><script>window.__xss=7</script>',
  replyName: '<script>window.__xss=8</script>',
  replyRole: '"><img src=x onerror=window.__xss=9>',
  replyStatement: '<img src=x onerror="window.__xss=10"><script>window.__xss=11</script></blockquote><a href="javascript:window.__xss=12">click</a>',
  replyUrl: 'https://evil.example/"><script>window.__xss=13</script>',
};

/** A report whose every outside text is an attack, plus a reply that is one. */
export async function storeHostileReport(pool: Pool) {
  const r = await storeFakeReport(pool, {
    name: HOSTILE.name,
    description: HOSTILE.description,
    claims: 4,
    claim: (i) =>
      i === 0 ? { quote: HOSTILE.quote }
      : i === 1 ? { source: { url: HOSTILE.sourceUrl, title: HOSTILE.sourceTitle, outlet: null, published: null } }
      : i === 2 ? { evidence: [{ url: HOSTILE.evidenceUrl, publisher: HOSTILE.evidencePublisher, published: null, quote: HOSTILE.quote, independent_of_subject: true }] }
      : { rationale: HOSTILE.rationale },
  });
  await storeReply(pool, r.claims[0]!.claim_id, r.subjectId, { name: HOSTILE.replyName, role: HOSTILE.replyRole, statement: HOSTILE.replyStatement, counter_evidence_url: HOSTILE.replyUrl });
  return r;
}
