import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db/pool.ts';

/**
 * API keys. A key is `rss_` followed by 43 base64url characters (256 random
 * bits). Only its sha256 digest is stored; the key is shown once, at creation.
 */

const PREFIX = 'rss_';
const KEY_PATTERN = /^rss_[A-Za-z0-9_-]{43}$/;

export type ApiKey = { id: number; name: string; prefix: string; createdAt: string; revokedAt: string | null };

export function hashKey(key: string): Buffer {
  // One-shot hash (Node ≥ 21.7): a third of createHash's cost, on every keyed request.
  return hash('sha256', key, 'buffer');
}

/** The same digest as hex text: the key cache's map key. */
export function keyDigestHex(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Whether a token has the form of a key at all: anything else is refused without a query. */
export function isWellFormedKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

export function newKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export class KeyNameTaken extends Error {}

export async function createKey(db: Queryable, name: string): Promise<{ key: string; record: ApiKey }> {
  const key = newKey();
  try {
    const { rows } = await db.query<Row>(
      `INSERT INTO api_keys (name, key_hash, key_prefix) VALUES ($1, $2, $3)
       RETURNING id, name, key_prefix, created_at, revoked_at`,
      [name, hashKey(key), key.slice(0, 8)],
    );
    return { key, record: toKey(rows[0]!) };
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new KeyNameTaken(`a live key named "${name}" exists; revoke it first or choose another name`);
    throw err;
  }
}

export async function listKeys(db: Queryable): Promise<ApiKey[]> {
  const { rows } = await db.query<Row>('SELECT id, name, key_prefix, created_at, revoked_at FROM api_keys ORDER BY id');
  return rows.map(toKey);
}

/** Revokes the live key with that name; returns false when there is none. */
export async function revokeKey(db: Queryable, name: string): Promise<boolean> {
  // One statement: the NOTIFY is delivered when the revocation commits, and
  // every API process's key cache forgets what it holds (core/key-cache.ts).
  // (Migration 013's trigger sends it too, for every write to api_keys;
  // PostgreSQL folds the two into one notice.)
  const { rows } = await db.query<{ n: number }>(
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING id
     )
     SELECT count(*)::int AS n, pg_notify('api_keys_changed', '') FROM revoked`,
    [name],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * The live key a bearer token stands for, or undefined. The lookup is by
 * digest, so the time it takes says nothing about how close a guess was; the
 * digests are compared once more in constant time all the same.
 */
export async function verifyKey(db: Queryable, token: string): Promise<{ id: number; name: string } | undefined> {
  if (!isWellFormedKey(token)) return undefined;
  const digest = hashKey(token);
  const { rows } = await db.query<{ id: number; name: string; key_hash: Buffer }>(
    'SELECT id, name, key_hash FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [digest],
  );
  const row = rows[0];
  if (!row || !timingSafeEqual(row.key_hash, digest)) return undefined;
  return { id: row.id, name: row.name };
}

type Row = { id: number; name: string; key_prefix: string; created_at: Date; revoked_at: Date | null };

function toKey(r: Row): ApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.key_prefix,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
  };
}
