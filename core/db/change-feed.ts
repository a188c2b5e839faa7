import pg from 'pg';

/**
 * One LISTEN connection per process, for the caches that must hear every
 * change to what they hold (keys, stored reports, subjects). A cache may
 * serve from memory only while `listening` is true: while the connection is
 * down (PostgreSQL restarting, say) notices could be missed, so every cache
 * is told to forget (`onReset`) when the connection is lost and again when it
 * is back, and meanwhile reads go to the database.
 */
const SYNC_CHANNEL = 'change_feed_sync';

export class ChangeFeed {
  #listener: pg.Client | undefined;
  #listening = false;
  #closed = false;
  readonly #url: string;
  readonly #channels: readonly string[];
  readonly #handlers = new Map<string, ((payload: string) => void)[]>();
  readonly #resets: (() => void)[] = [];
  readonly #waiting = new Map<string, () => void>();

  constructor(url: string, channels: readonly string[]) {
    for (const c of channels) if (!/^[a-z_]+$/.test(c)) throw new Error(`bad channel name ${c}`);
    this.#url = url;
    this.#channels = channels;
  }

  get listening(): boolean {
    return this.#listening;
  }

  on(channel: string, handler: (payload: string) => void): void {
    if (!this.#channels.includes(channel)) throw new Error(`channel ${channel} is not listened to`);
    this.#handlers.set(channel, [...(this.#handlers.get(channel) ?? []), handler]);
  }

  onReset(handler: () => void): void {
    this.#resets.push(handler);
  }

  async start(): Promise<void> {
    await this.#connect().catch(() => this.#retryLater());
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#url, application_name: 'reliability-scoring-changes' });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', (n) => {
      if (n.channel === SYNC_CHANNEL) {
        this.#waiting.get(n.payload ?? '')?.();
        return;
      }
      for (const h of this.#handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    await client.connect();
    for (const c of [...this.#channels, SYNC_CHANNEL]) await client.query(`LISTEN ${c}`);
    this.#listener = client;
    this.#reset();
    this.#listening = true;
  }

  #reset(): void {
    for (const r of this.#resets) r();
  }

  #lost(client: pg.Client): void {
    // A client that never finished connecting is retried by #connect's caller.
    if (this.#listener !== client) return;
    this.#listening = false;
    this.#listener = undefined;
    this.#reset();
    client.end().catch(() => {});
    this.#retryLater();
  }

  #retryLater(): void {
    if (this.#closed) return;
    setTimeout(() => void this.#connect().catch(() => this.#retryLater()), 2_000).unref();
  }

  /**
   * Resolves once every notice committed before the call has been handled:
   * PostgreSQL delivers notices in commit order, so hearing our own marker
   * means everything before it was heard. For tests and tools that change
   * rows and then read through a cache.
   */
  async settled(timeoutMs = 5_000): Promise<void> {
    const client = this.#listener;
    if (!client) return;
    const token = `${process.pid}-${Math.random().toString(36).slice(2)}`;
    const heard = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('change feed did not hear its own marker')), timeoutMs);
      this.#waiting.set(token, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      await client.query('SELECT pg_notify($1, $2)', [SYNC_CHANNEL, token]);
      await heard;
    } finally {
      this.#waiting.delete(token);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    this.#reset();
    await this.#listener?.end().catch(() => {});
  }
}
