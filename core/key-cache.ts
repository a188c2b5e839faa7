import pg from 'pg';
import { verifyKey } from './keys.ts';
import type { Queryable } from './db/pool.ts';

export const KEYS_CHANNEL = 'api_keys_changed';

type Entry = { key: { id: number; name: string }; expires: number };

/**
 * Remembers verified keys so that a keyed request costs no key query. Safe
 * only while we hear every change: `revokeKey` sends NOTIFY on KEYS_CHANNEL,
 * this cache LISTENs and forgets everything it holds on each notice. While the
 * listening connection is down, nothing is cached (every request asks the
 * database), so a revocation always takes effect within the time a NOTIFY
 * takes. Unknown keys are never cached.
 */
export class KeyCache {
  #entries = new Map<string, Entry>();
  #listener: pg.Client | undefined;
  #listening = false;
  #closed = false;
  readonly #db: Queryable;
  readonly #url: string;
  readonly #ttlMs: number;

  constructor(db: Queryable, url: string, ttlMs = 60_000) {
    this.#db = db;
    this.#url = url;
    this.#ttlMs = ttlMs;
  }

  async start(): Promise<void> {
    await this.#connect().catch(() => this.#retryLater());
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#url, application_name: 'reliability-scoring-keys' });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', () => this.#entries.clear());
    await client.connect();
    await client.query(`LISTEN ${KEYS_CHANNEL}`);
    this.#listener = client;
    this.#entries.clear();
    this.#listening = true;
  }

  #lost(client: pg.Client): void {
    if (this.#listener !== client) return;
    this.#listening = false;
    this.#listener = undefined;
    this.#entries.clear();
    client.end().catch(() => {});
    this.#retryLater();
  }

  #retryLater(): void {
    if (this.#closed) return;
    setTimeout(() => void this.#connect().catch(() => this.#retryLater()), 2_000).unref();
  }

  async verify(token: string, digestHex: (t: string) => string): Promise<{ id: number; name: string } | undefined> {
    const id = digestHex(token);
    const hit = this.#entries.get(id);
    if (hit && hit.expires > Date.now() && this.#listening) return hit.key;
    const key = await verifyKey(this.#db, token);
    if (key && this.#listening) {
      if (this.#entries.size > 10_000) this.#entries.clear();
      this.#entries.set(id, { key, expires: Date.now() + this.#ttlMs });
    }
    return key;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    this.#entries.clear();
    await this.#listener?.end().catch(() => {});
  }
}
