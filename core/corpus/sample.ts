import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Pool } from '../db/pool.ts';
import { REPO_ROOT } from '../method/version.ts';
import { ingestPack, type IngestResult } from './ingest.ts';

export const SAMPLE_PACK = path.join(REPO_ROOT, 'content', 'sample-pack.jsonl');

/**
 * Loads the sample pack the first time the service starts on a database, and
 * never again (so a subject an operator removed does not come back). The
 * first process to claim the `sample_pack` key loads it; others skip.
 */
export async function loadSamplePackOnce(pool: Pool): Promise<(IngestResult & { subjectIds: string[] }) | null> {
  const { rows } = await pool.query(
    `INSERT INTO service_state (key, value) VALUES ('sample_pack', jsonb_build_object('loading_since', now()))
     ON CONFLICT (key) DO NOTHING RETURNING key`,
  );
  if (rows.length === 0) return null;
  try {
    const result = await ingestPack(pool, createReadStream(SAMPLE_PACK));
    await pool.query(`UPDATE service_state SET value = $1, updated_at = now() WHERE key = 'sample_pack'`, [
      JSON.stringify({ loaded_at: new Date().toISOString(), subjects: result.subjects.read, documents: result.documents.read, skipped: result.skipped.length }),
    ]);
    const { rows: subjects } = await pool.query<{ id: string }>(
      `SELECT id FROM subjects WHERE description LIKE 'SAMPLE DATA (invented)%' ORDER BY name, kind`,
    );
    return { ...result, subjectIds: subjects.map((r) => r.id) };
  } catch (err) {
    // Let the next start try again.
    await pool.query(`DELETE FROM service_state WHERE key = 'sample_pack'`).catch(() => {});
    throw err;
  }
}
