import type { ChangeFeed } from '../db/change-feed.ts';
import type { Queryable } from '../db/pool.ts';
import type { KnowledgeProvider, KnownSubject } from '../providers/types.ts';
import { RawJson } from '../json.ts';
import type { Topic } from '../method/outcomes.ts';
import { envelopeJson, isStale } from './read.ts';
import { latestReportText, reportTextById, type StoredText } from './repository.ts';

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * The same JSON in ASCII: every character past U+007F written as its \uXXXX
 * escape (a character beyond the BMP as its two surrogates' escapes, as JSON
 * spells it). Such characters stand only inside JSON strings, where the
 * escape means the same character, so every JSON reader reads the same value.
 * Made again from its Latin-1 bytes: the result of a replace on a two-byte
 * string may be held as two bytes a character even when all of it is ASCII.
 */
export function asciiJson(text: string): string {
  NON_ASCII.lastIndex = 0;
  if (!NON_ASCII.test(text)) return text;
  const escaped = text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Buffer.from(escaped, 'latin1').toString('latin1');
}

export const REPORTS_CHANNEL = 'reports_changed';
export const SUBJECTS_CHANNEL = 'subjects_changed';

/**
 * Stored reports served from memory. A report is never changed once stored,
 * but a subject's latest report changes when a new one is made, and rows can
 * be removed: every statement on the reports table sends a notice (migration
 * 010) and both maps are forgotten. Entries are kept only while the change
 * feed is listening, and a read that raced a notice is not kept (the
 * generation counter), so nothing served can be older than the last notice
 * delivered. `stale` is computed at serving time, never cached.
 */
export class StoredReports {
  #byId = new Map<string, StoredText>();
  #latest = new Map<string, StoredText>();
  #bytes = 0;
  #generation = 0;
  /**
   * Each entry's envelope, for the `stale` value it was made with, kept as an
   * ASCII string (asciiJson): Node writes headers and a string body in one
   * write, where a Buffer body goes out as a writev of two (12% slower on a
   * bare route), and a string with one non-ASCII character is a two-byte
   * string, 35% slower to send than its bytes. Escaping a report's few
   * non-ASCII characters (a £, a curly quote) makes it both.
   */
  #encoded = new WeakMap<StoredText, { stale: boolean; out: { json: RawJson; generatedAt: Date } }>();
  readonly #db: Queryable;
  readonly #feed: ChangeFeed | undefined;
  readonly #maxBytes: number;

  constructor(db: Queryable, feed?: ChangeFeed, maxBytes = 32 * 1024 * 1024) {
    this.#db = db;
    this.#feed = feed;
    this.#maxBytes = maxBytes;
    feed?.on(REPORTS_CHANNEL, () => this.#forget());
    feed?.onReset(() => this.#forget());
  }

  #forget(): void {
    this.#generation++;
    this.#byId.clear();
    this.#latest.clear();
    this.#bytes = 0;
  }

  async #read(map: Map<string, StoredText>, key: string, read: () => Promise<StoredText | null>): Promise<StoredText | null> {
    const listening = this.#feed?.listening === true;
    const hit = listening ? map.get(key) : undefined;
    if (hit) return hit;
    const generation = this.#generation;
    const found = await read();
    if (found && listening && this.#feed?.listening && generation === this.#generation) {
      // Bounded by size: past the bound, start again rather than keep a recency list.
      if (this.#bytes + found.report.length > this.#maxBytes) this.#forget();
      map.set(key, found);
      this.#bytes += found.report.length;
    }
    return found;
  }

  #envelope(r: StoredText, now: Date): { json: RawJson; generatedAt: Date } {
    const stale = isStale(r.generatedAt, now);
    const memo = this.#encoded.get(r);
    if (memo && memo.stale === stale) return memo.out;
    const made = envelopeJson(r, now);
    const out = { json: new RawJson(asciiJson(made.json.text)), generatedAt: made.generatedAt };
    this.#encoded.set(r, { stale, out });
    return out;
  }

  async byId(reportId: string, now = new Date()): Promise<{ json: RawJson; generatedAt: Date } | null> {
    const r = await this.#read(this.#byId, reportId, () => reportTextById(this.#db, reportId));
    return r ? this.#envelope(r, now) : null;
  }

  /** The subject's latest report on its whole record (topic null), or on one topic: never one for the other (core/reports/repository.ts). */
  async latestFor(subjectId: string, topic: Topic | null = null, now = new Date()): Promise<{ json: RawJson; generatedAt: Date } | null> {
    // Subject ids never hold a NUL, so the key names one (subject, topic) pair.
    const r = await this.#read(this.#latest, `${subjectId}\u0000${topic ?? ''}`, () => latestReportText(this.#db, subjectId, topic));
    return r ? this.#envelope(r, now) : null;
  }
}

/**
 * The knowledge provider with `byId` remembered (the lookup behind every
 * POST /v1/reports by subject_id), forgotten on any change to the subjects
 * table and after a minute (whether someone holds office is worked out for
 * the day of asking).
 */
export function rememberingKnowledge(knowledge: KnowledgeProvider, feed: ChangeFeed, ttlMs = 60_000): KnowledgeProvider {
  const byId = new Map<string, { subject: KnownSubject; expires: number }>();
  let generation = 0;
  const forget = () => {
    generation++;
    byId.clear();
  };
  feed.on(SUBJECTS_CHANNEL, forget);
  feed.onReset(forget);
  return {
    name: knowledge.name,
    lookup: (name, kind) => knowledge.lookup(name, kind),
    byIdentifiers: (urls, handles) => knowledge.byIdentifiers(urls, handles),
    async byId(id) {
      const hit = feed.listening ? byId.get(id) : undefined;
      if (hit && hit.expires > Date.now()) return hit.subject;
      const g = generation;
      const subject = await knowledge.byId(id);
      if (subject && feed.listening && g === generation) {
        if (byId.size > 10_000) forget();
        byId.set(id, { subject, expires: Date.now() + ttlMs });
      }
      return subject;
    },
  };
}
