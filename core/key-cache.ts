import { isWellFormedKey, verifyKey, type LiveKey } from './keys.ts';
import type { Queryable } from './db/pool.ts';
import type { ChangeFeed } from './db/change-feed.ts';

export const KEYS_CHANNEL = 'api_keys_changed';

type Key = LiveKey;

export type KeyCacheOptions = {
  /** How long a verified key is remembered. */
  ttlMs?: number;
  /** How long a well-formed key the database does not hold (unknown or revoked) is remembered as such. */
  unknownTtlMs?: number;
  /** Entries kept of each kind; past it the oldest is forgotten first. */
  maxEntries?: number;
};

/**
 * Remembers the answers of key look-ups, both kinds, so that a keyed request
 * costs no key query and a flood of one unknown key costs one. Safe only while
 * we hear every change: every write to api_keys (a key made, revoked or
 * deleted, by any process or person) sends NOTIFY on KEYS_CHANNEL (migration
 * 013's trigger), the change feed LISTENs, and this cache forgets everything it
 * holds on each notice; so a new key is accepted, and a revoked one refused,
 * within the time a NOTIFY takes. While the feed is down, nothing is cached
 * (every request asks the database). An answer is kept only if no notice came
 * while it was being looked up, so a key made or revoked during a look-up is
 * never remembered the wrong way round. Malformed keys are refused without a
 * query and never cached.
 */
export class KeyCache {
  readonly #known = new Map<string, { key: Key; expires: number }>();
  readonly #unknown = new Map<string, number>();
  readonly #db: Queryable;
  readonly #feed: ChangeFeed;
  readonly #ttlMs: number;
  readonly #unknownTtlMs: number;
  readonly #maxEntries: number;
  // Moves on every notice: a look-up that started before one must not be kept.
  #generation = 0;

  constructor(db: Queryable, feed: ChangeFeed, o: KeyCacheOptions = {}) {
    this.#db = db;
    this.#feed = feed;
    this.#ttlMs = o.ttlMs ?? 60_000;
    this.#unknownTtlMs = o.unknownTtlMs ?? 30_000;
    this.#maxEntries = o.maxEntries ?? 10_000;
    feed.on(KEYS_CHANNEL, () => this.#forget());
    feed.onReset(() => this.#forget());
  }

  #forget(): void {
    this.#known.clear();
    this.#unknown.clear();
    this.#generation++;
  }

  #remember<V>(map: Map<string, V>, digest: string, value: V): void {
    map.delete(digest);
    if (map.size >= this.#maxEntries) map.delete(map.keys().next().value!);
    map.set(digest, value);
  }

  /** The key, if the cache alone can vouch for it (no query). */
  known(token: string, digestHex: (t: string) => string): Key | undefined {
    if (!this.#feed.listening) return undefined;
    const hit = this.#known.get(digestHex(token));
    return hit && hit.expires > Date.now() ? hit.key : undefined;
  }

  async verify(token: string, digestHex: (t: string) => string): Promise<Key | undefined> {
    if (!isWellFormedKey(token)) return undefined;
    const digest = digestHex(token);
    const now = Date.now();
    if (this.#feed.listening) {
      const hit = this.#known.get(digest);
      if (hit && hit.expires > now) return hit.key;
      const miss = this.#unknown.get(digest);
      if (miss !== undefined && miss > now) return undefined;
    }
    const generation = this.#generation;
    const key = await verifyKey(this.#db, token);
    if (this.#feed.listening && generation === this.#generation) {
      if (key) this.#remember(this.#known, digest, { key, expires: Date.now() + this.#ttlMs });
      else this.#remember(this.#unknown, digest, Date.now() + this.#unknownTtlMs);
    }
    return key;
  }
}
