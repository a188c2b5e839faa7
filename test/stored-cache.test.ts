import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../core/db/change-feed.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import { REPORTS_CHANNEL, SUBJECTS_CHANNEL, StoredReports, rememberingKnowledge } from '../core/reports/stored.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { until } from './helpers/poll.ts';

// The API's caches in front of stored reports and subjects: served from memory
// while the change feed listens, forgotten on every change, bypassed while the
// feed is down.

let db: TestDatabase;
let feed: ChangeFeed;
const SUBJECT = 'sub_cachetest000001';

async function addReport(id: string, body: Record<string, unknown>, ago = '0 days') {
  await db.pool.query(
    `INSERT INTO reports (id, subject_id, generated_at, method_version, depth, report) VALUES ($1, $2, now() - $4::interval, '1.0.0', 'quick', $3)`,
    [id, SUBJECT, JSON.stringify(body), ago],
  );
  await feed.settled();
}

/** Changes rows without firing triggers (no notice): what the cache cannot hear. */
async function silently(sql: string, params: unknown[]) {
  const c = await db.pool.connect();
  try {
    await c.query(`SET session_replication_role = replica`);
    await c.query(sql, params);
  } finally {
    await c.query(`RESET session_replication_role`);
    c.release();
  }
}

beforeAll(async () => {
  db = await createTestDatabase('stored-cache');
  await db.pool.query(
    `INSERT INTO subjects (id, name, kind, name_keys) VALUES ($1, 'Cache Test Subject (sample)', 'organisation', ARRAY['cache test subject (sample)'])`,
    [SUBJECT],
  );
  feed = new ChangeFeed(db.url, [REPORTS_CHANNEL, SUBJECTS_CHANNEL]);
  await feed.start();
});

afterAll(async () => {
  await feed.close();
  await db.drop();
});

describe('stored reports in memory', () => {
  it('serves a stored report from memory, forgets it on any change to reports, and recomputes stale when serving', async () => {
    const stored = new StoredReports(db.pool, feed);
    await addReport('rep_cache000000000000a', { n: 1 });
    const first = await stored.byId('rep_cache000000000000a');
    expect(JSON.parse(first!.json.text)).toMatchObject({ report_id: 'rep_cache000000000000a', stale: false, report: { n: 1 } });
    expect((await stored.latestFor(SUBJECT))!.json.text).toBe(first!.json.text);

    // A change the cache cannot hear: memory still answers (proof that it is memory).
    await silently(`UPDATE reports SET report = '{"n": 2}' WHERE id = $1`, ['rep_cache000000000000a']);
    expect(JSON.parse((await stored.byId('rep_cache000000000000a'))!.json.text).report).toEqual({ n: 1 });
    // `stale` is worked out at serving time, from the date stored with the entry.
    const later = new Date(Date.now() + 91 * 86_400_000);
    expect(JSON.parse((await stored.byId('rep_cache000000000000a', later))!.json.text).stale).toBe(true);

    // A change made normally is heard: both maps forget.
    await addReport('rep_cache000000000000b', { n: 3 });
    await until(async () => JSON.parse((await stored.byId('rep_cache000000000000a'))!.json.text).report.n === 2, 'the notice', 5_000);
    expect(JSON.parse((await stored.latestFor(SUBJECT))!.json.text).report_id).toBe('rep_cache000000000000b');

    await db.pool.query(`DELETE FROM reports WHERE id = $1`, ['rep_cache000000000000b']);
    // Heard once every notice before it is handled (byId of `b` alone would answer null from the database at once).
    await feed.settled();
    expect(await stored.byId('rep_cache000000000000b')).toBeNull();
    expect(JSON.parse((await stored.latestFor(SUBJECT))!.json.text).report_id).toBe('rep_cache000000000000a');
  });

  it('goes to the database while the feed is down, and caches again once it is back', async () => {
    const stored = new StoredReports(db.pool, feed);
    await stored.byId('rep_cache000000000000a');
    await db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'reliability-scoring-changes' AND datname = current_database()`);
    await until(async () => !feed.listening, 'the feed to notice it is down', 5_000);
    // Nothing can be heard now, so nothing is served from memory.
    await silently(`UPDATE reports SET report = '{"n": 4}' WHERE id = $1`, ['rep_cache000000000000a']);
    expect(JSON.parse((await stored.byId('rep_cache000000000000a'))!.json.text).report).toEqual({ n: 4 });
    await until(async () => feed.listening, 'the feed to reconnect', 10_000);
    await stored.byId('rep_cache000000000000a');
    await silently(`UPDATE reports SET report = '{"n": 5}' WHERE id = $1`, ['rep_cache000000000000a']);
    expect(JSON.parse((await stored.byId('rep_cache000000000000a'))!.json.text).report).toEqual({ n: 4 });
  });

  it('holds every envelope as ASCII text, any other character escaped, read back the same', async () => {
    const stored = new StoredReports(db.pool, feed);
    await addReport('rep_cache00000000000ee', { quote: 'Fares rise to £2 — “from May” 🚌' });
    const other = (await stored.byId('rep_cache00000000000ee'))!;
    expect(typeof other.json.body).toBe('string');
    expect(other.json.text).toMatch(/^[\x00-\x7f]*$/);
    expect(other.json.text).toContain('Fares rise to \\u00a32 \\u2014 \\u201cfrom May\\u201d \\ud83d\\ude8c');
    expect(JSON.parse(other.json.text).report.quote).toBe('Fares rise to £2 — “from May” 🚌');
    const ascii = (await stored.byId('rep_cache000000000000a'))!;
    expect(typeof ascii.json.body).toBe('string');
    await db.pool.query(`DELETE FROM reports WHERE id = $1`, ['rep_cache00000000000ee']);
    await feed.settled();
  });

  it('keeps no more than its byte bound', async () => {
    const stored = new StoredReports(db.pool, feed, 40);
    await addReport('rep_cache000000000000c', { text: 'x'.repeat(30) });
    await until(async () => JSON.parse((await stored.latestFor(SUBJECT))!.json.text).report_id === 'rep_cache000000000000c', 'the new report', 5_000);
    await stored.byId('rep_cache000000000000c');
    // Two entries of ~40 bytes each exceed the bound: the second read started the cache again.
    await silently(`UPDATE reports SET report = '{"text": "y"}' WHERE id = $1`, ['rep_cache000000000000c']);
    expect(JSON.parse((await stored.latestFor(SUBJECT))!.json.text).report).toEqual({ text: 'y' });
  });
});

describe('latest reports in memory, by scope', () => {
  it('keeps the whole record and each topic apart: a topic report is never served for the whole record, nor the other way round', async () => {
    const other = 'sub_cachetest000002';
    await db.pool.query(`INSERT INTO subjects (id, name, kind, name_keys) VALUES ($1, 'Cache Scope Subject (sample)', 'organisation', ARRAY['cache scope subject (sample)'])`, [other]);
    await db.pool.query(
      `INSERT INTO reports (id, subject_id, generated_at, method_version, depth, topic, report) VALUES
         ('rep_cachescope0000000w', $1, now() - interval '2 days', '1.0.0', 'quick', NULL, '{"on": "whole"}'),
         ('rep_cachescope0000000e', $1, now() - interval '1 day', '1.0.0', 'quick', 'environment', '{"on": "environment"}')`,
      [other],
    );
    await feed.settled();
    const stored = new StoredReports(db.pool, feed);
    const read = async (topic: 'environment' | 'health' | null) => {
      const r = await stored.latestFor(other, topic);
      return r ? (JSON.parse(r.json.text) as { report_id: string; topic: string | null }) : null;
    };
    // Twice each: the second answer comes from memory.
    for (let i = 0; i < 2; i++) {
      expect(await read(null)).toMatchObject({ report_id: 'rep_cachescope0000000w', topic: null });
      expect(await read('environment')).toMatchObject({ report_id: 'rep_cachescope0000000e', topic: 'environment' });
      expect(await read('health')).toBeNull();
    }
  });
});

describe('subjects in memory', () => {
  it('remembers byId until the subjects table changes', async () => {
    const knowledge = rememberingKnowledge(localProviders(db.pool).knowledge, feed);
    expect((await knowledge.byId(SUBJECT))!.description).toBeNull();
    await silently(`UPDATE subjects SET description = 'unheard' WHERE id = $1`, [SUBJECT]);
    expect((await knowledge.byId(SUBJECT))!.description).toBeNull();
    await feed.settled();
    expect((await knowledge.byId(SUBJECT))!.description).toBeNull();
    await db.pool.query(`UPDATE subjects SET description = 'heard' WHERE id = $1`, [SUBJECT]);
    await until(async () => (await knowledge.byId(SUBJECT))!.description === 'heard', 'the notice', 5_000);
  });
});
