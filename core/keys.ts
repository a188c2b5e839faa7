import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db/pool.ts';

/**
 * API keys. A key is `rss_` followed by 43 base64url characters (256 random
 * bits). Only its sha256 digest is stored; the key is shown once, at creation.
 */

const PREFIX = 'rss_';
const KEY_PATTERN = /^rss_[A-Za-z0-9_-]{43}$/;

/**
 * What a key may do (issue #18). Every route needs one scope (api/route.ts):
 * - `read`: every read, resolve, reports and checks (which start jobs), the MCP endpoint;
 * - `respond`: send replies to claims (POST /v1/responses);
 * - `label`: the blind labelling routes (/v1/labels…);
 * - `review`: the editorial review routes (/v1/reviews…, …/review).
 * A scope implies no other: a reviewer who also reads needs `read,review`.
 */
export const SCOPES = ['read', 'respond', 'label', 'review'] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * What a key made without naming scopes may do, and what every key made
 * before scopes existed may still do (migration 015's column default): all
 * but `review`, which must be given on purpose.
 */
export const DEFAULT_SCOPES: readonly Scope[] = ['read', 'respond', 'label'];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

export type ApiKey = { id: number; name: string; prefix: string; scopes: Scope[]; createdAt: string; revokedAt: string | null };
/** A live key as a request carries it. */
export type LiveKey = { id: number; name: string; scopes: Scope[] };

/** Scopes in their canonical order, each once. */
export function normaliseScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}

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

export async function createKey(db: Queryable, name: string, scopes: readonly Scope[] = DEFAULT_SCOPES): Promise<{ key: string; record: ApiKey }> {
  const key = newKey();
  const given = normaliseScopes(scopes);
  if (given.length === 0) throw new RangeError(`a key needs at least one scope: ${SCOPES.join(', ')}`);
  try {
    const { rows } = await db.query<Row>(
      `INSERT INTO api_keys (name, key_hash, key_prefix, scopes) VALUES ($1, $2, $3, $4)
       RETURNING id, name, key_prefix, scopes, created_at, revoked_at`,
      [name, hashKey(key), key.slice(0, 8), given],
    );
    return { key, record: toKey(rows[0]!) };
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new KeyNameTaken(`a live key named "${name}" exists; revoke it first or choose another name`);
    throw err;
  }
}

export async function listKeys(db: Queryable): Promise<ApiKey[]> {
  const { rows } = await db.query<Row>('SELECT id, name, key_prefix, scopes, created_at, revoked_at FROM api_keys ORDER BY id');
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
export async function verifyKey(db: Queryable, token: string): Promise<LiveKey | undefined> {
  if (!isWellFormedKey(token)) return undefined;
  const digest = hashKey(token);
  const { rows } = await db.query<{ id: number; name: string; scopes: string[]; key_hash: Buffer }>(
    'SELECT id, name, scopes, key_hash FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [digest],
  );
  const row = rows[0];
  if (!row || !timingSafeEqual(row.key_hash, digest)) return undefined;
  return { id: row.id, name: row.name, scopes: row.scopes.filter(isScope) };
}

type Row = { id: number; name: string; key_prefix: string; scopes: string[]; created_at: Date; revoked_at: Date | null };

function toKey(r: Row): ApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.key_prefix,
    scopes: r.scopes.filter(isScope),
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
  };
}
