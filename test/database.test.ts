import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, loadMigrations } from '../core/db/migrate.ts';
import { createPool } from '../core/db/pool.ts';
import { createKey, listKeys, revokeKey, verifyKey, hashKey, KeyNameTaken } from '../core/keys.ts';
import { queueDepth } from '../core/status.ts';
import { PGBOSS_SCHEMA, QUEUES } from '../jobs/queues.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, 'database');
});
afterAll(() => t.close());

describe('migrations', () => {
  it('are applied once, in order, and several processes may run them at once', async () => {
    const pools = [createPool(t.db.url, 2), createPool(t.db.url, 2), createPool(t.db.url, 2)];
    const applied = await Promise.all(pools.map((p) => migrate(p)));
    expect(applied.flat()).toEqual([]); // all were applied when the test database was made
    const { rows } = await t.db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
    await Promise.all(pools.map((p) => p.end()));
  });

  it('refuse to run when an applied migration was edited', async () => {
    await t.db.pool.query(`UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1`);
    await expect(migrate(t.db.pool)).rejects.toThrow(/changed after it was applied/);
    const [first] = await loadMigrations();
    await t.db.pool.query('UPDATE schema_migrations SET checksum = $1 WHERE version = 1', [first!.checksum]);
    expect(await migrate(t.db.pool)).toEqual([]);
  });
});

describe('keys', () => {
  it('are stored only as a sha256 digest', async () => {
    const { key } = await createKey(t.db.pool, 'digest-check');
    const { rows } = await t.db.pool.query('SELECT * FROM api_keys WHERE name = $1', ['digest-check']);
    const stored = JSON.stringify(rows, (_k, v) => (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v));
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(4));
    expect((rows[0].key_hash as Buffer).equals(hashKey(key))).toBe(true);
  });

  it('are one live key per name; a revoked name can be used again', async () => {
    await createKey(t.db.pool, 'reused');
    await expect(createKey(t.db.pool, 'reused')).rejects.toBeInstanceOf(KeyNameTaken);
    expect(await revokeKey(t.db.pool, 'reused')).toBe(true);
    expect(await revokeKey(t.db.pool, 'reused')).toBe(false);
    const { key } = await createKey(t.db.pool, 'reused');
    expect(await verifyKey(t.db.pool, key)).toMatchObject({ name: 'reused' });
    const listed = (await listKeys(t.db.pool)).filter((k) => k.name === 'reused');
    expect(listed.map((k) => k.revokedAt === null)).toEqual([false, true]);
  });

  it('verify only well-formed live keys', async () => {
    const { key } = await createKey(t.db.pool, 'verify');
    expect(await verifyKey(t.db.pool, key)).toMatchObject({ name: 'verify' });
    expect(await verifyKey(t.db.pool, key.toUpperCase())).toBeUndefined();
    expect(await verifyKey(t.db.pool, `${key} `)).toBeUndefined();
    expect(await verifyKey(t.db.pool, "rss_' OR 1=1 --")).toBeUndefined();
  });
});

describe('status', () => {
  it('shows the real queue depth, read from pg-boss\'s own tables', async () => {
    const headers = bearer(await t.key('status'));
    const before = (await t.app.inject({ method: 'GET', url: '/v1/status', headers })).json();
    expect(before.queue.depth).toBe(0);
    await t.boss.send(QUEUES.report, { probe: 1 });
    await t.boss.send(QUEUES.report, { probe: 2 });
    await t.boss.send(QUEUES.check, { probe: 3 });
    const after = (await t.app.inject({ method: 'GET', url: '/v1/status', headers })).json();
    expect(after.queue).toMatchObject({ depth: 3, queued: 3, active: 0, by_queue: { report: { queued: 2, active: 0 }, check: { queued: 1, active: 0 } } });
    // A job taken by a worker counts as active until it ends.
    const [job] = await t.boss.fetch(QUEUES.report);
    expect(await queueDepth(t.db.pool, PGBOSS_SCHEMA, Object.values(QUEUES))).toMatchObject({ depth: 3, queued: 2, active: 1 });
    await t.boss.complete(QUEUES.report, job!.id);
    expect((await queueDepth(t.db.pool, PGBOSS_SCHEMA, Object.values(QUEUES))).depth).toBe(2);
    expect(after.spend).toMatchObject({ spent_usd: 0, limit_usd: 10, remaining_usd: 10 });
    expect(after.spend.day).toBe(new Date().toISOString().slice(0, 10));
  });
});
