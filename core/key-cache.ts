import { verifyKey } from './keys.ts';
import type { Queryable } from './db/pool.ts';
import type { ChangeFeed } from './db/change-feed.ts';

export const KEYS_CHANNEL = 'api_keys_changed';

type Entry = { key: { id: number; name: string }; expires: number };

/**
 * Remembers verified keys so that a keyed request costs no key query. Safe
 * only while we hear every change: `revokeKey` sends NOTIFY on KEYS_CHANNEL,
 * the change feed LISTENs and this cache forgets everything it holds on each
 * notice. While the feed is down, nothing is cached (every request asks the
 * database), so a revocation always takes effect within the time a NOTIFY
 * takes. Unknown keys are never cached.
 */
export class KeyCache {
  #entries = new Map<string, Entry>();
  readonly #db: Queryable;
  readonly #feed: ChangeFeed;
  readonly #ttlMs: number;

  constructor(db: Queryable, feed: ChangeFeed, ttlMs = 60_000) {
    this.#db = db;
    this.#feed = feed;
    this.#ttlMs = ttlMs;
    feed.on(KEYS_CHANNEL, () => this.#entries.clear());
    feed.onReset(() => this.#entries.clear());
  }

  async verify(token: string, digestHex: (t: string) => string): Promise<{ id: number; name: string } | undefined> {
    const id = digestHex(token);
    const hit = this.#entries.get(id);
    if (hit && hit.expires > Date.now() && this.#feed.listening) return hit.key;
    const key = await verifyKey(this.#db, token);
    if (key && this.#feed.listening) {
      if (this.#entries.size > 10_000) this.#entries.clear();
      this.#entries.set(id, { key, expires: Date.now() + this.#ttlMs });
    }
    return key;
  }
}
