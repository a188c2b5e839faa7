import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES, createKey, listKeys, verifyKey } from '../core/keys.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { keyCommand } from './helpers/process.ts';

/**
 * Key scopes (issue #18): set with the key command (`--scope`, repeatable or
 * a comma list), shown by `key -- list`, stored with the key, and what a key
 * made with them may then do against the running app.
 */

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'keys');
  env = { DATABASE_URL: t.db.url, DATA_DIR: '/nonexistent-data-dir' };
});
afterAll(() => t.close());

describe('npm run key -- create --scope', () => {
  it('without --scope a key gets read, respond and label: what every key could do before scopes', async () => {
    const res = await keyCommand(['create', 'plain'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^rss_[A-Za-z0-9_-]{43}\n$/);
    expect(res.stderr).toContain('key: "plain" made with scopes read,respond,label');
    expect(await verifyKey(t.db.pool, res.stdout.trim())).toMatchObject({ name: 'plain', scopes: [...DEFAULT_SCOPES] });
  });

  it('--scope review gives review alone; a comma list and repeated options combine, each once, in a fixed order', async () => {
    const one = await keyCommand(['create', 'editor', '--scope', 'review'], env);
    expect(one.code, one.stderr).toBe(0);
    expect(await verifyKey(t.db.pool, one.stdout.trim())).toMatchObject({ scopes: ['review'] });
    const many = await keyCommand(['create', '--scope', 'review,read', 'desk', '--scope=label', '--scope', 'READ'], env);
    expect(many.code, many.stderr).toBe(0);
    expect(await verifyKey(t.db.pool, many.stdout.trim())).toMatchObject({ name: 'desk', scopes: ['read', 'label', 'review'] });
  });

  it('an unknown or missing scope, or --scope with another command, is refused (exit 2) and makes no key', async () => {
    const before = (await listKeys(t.db.pool)).length;
    for (const args of [['create', 'x1', '--scope', 'admin'], ['create', 'x2', '--scope'], ['create', 'x3', '--scope', ','], ['list', '--scope', 'read'], ['revoke', 'plain', '--scope', 'read']]) {
      const res = await keyCommand(args, env);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/scope/);
    }
    expect((await keyCommand(['create', 'x4', '--scope', 'admin'], env)).stderr).toContain('unknown scope "admin": a scope is one of read, respond, label, review');
    expect((await listKeys(t.db.pool)).length).toBe(before);
  });

  it('list shows each key\'s scopes', async () => {
    const list = await keyCommand(['list'], env);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+KEY\s+SCOPES\s+CREATED\s+STATE$/);
    expect(lines.find((l) => l.startsWith('plain '))).toMatch(/\sread,respond,label\s/);
    expect(lines.find((l) => l.startsWith('editor '))).toMatch(/\sreview\s/);
    expect(lines.find((l) => l.startsWith('desk '))).toMatch(/\sread,label,review\s/);
  });
});

describe('scopes on the routes', () => {
  it('a key is allowed exactly its scopes, and a change of scopes reaches a running app at once', async () => {
    const { key, record } = await createKey(t.db.pool, 'switch', ['read']);
    expect(record.scopes).toEqual(['read']);
    const h = bearer(key);
    expect((await t.app.inject({ method: 'GET', url: '/v1/status', headers: h })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/labels', headers: h })).json()).toMatchObject({ status: 403, required_scope: 'label', key_scopes: ['read'] });
    // Scopes live in the database with the key; the key cache forgets on any change to api_keys (migration 013's notice).
    await t.db.pool.query(`UPDATE api_keys SET scopes = '{read,label}' WHERE name = 'switch'`);
    await t.app.changes.settled();
    expect((await t.app.inject({ method: 'GET', url: '/v1/labels', headers: h })).statusCode).toBe(200);
  });

  it('a key needs at least one scope', async () => {
    await expect(createKey(t.db.pool, 'none', [])).rejects.toThrow(/at least one scope/);
    await expect(t.db.pool.query(`INSERT INTO api_keys (name, key_hash, key_prefix, scopes) VALUES ('empty', sha256('e'::bytea), 'rss_empt', '{}')`)).rejects.toThrow(/api_keys_scopes_known/);
  });
});
