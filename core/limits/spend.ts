import type { Queryable } from '../db/pool.ts';

/** One paid call, recorded against today's spend (UTC). */
export type SpendEntry = { provider: string; purpose: string; inputTokens?: number; outputTokens?: number; amountUsd: number };

export async function recordSpend(db: Queryable, e: SpendEntry): Promise<void> {
  await db.query(
    `INSERT INTO spend_ledger (provider, purpose, input_tokens, output_tokens, amount_usd) VALUES ($1, $2, $3, $4, $5)`,
    [e.provider, e.purpose, e.inputTokens ?? 0, e.outputTokens ?? 0, e.amountUsd],
  );
}

/** Today's spend in US dollars (UTC day). */
export async function spentToday(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `SELECT coalesce(sum(amount_usd), 0) AS total FROM spend_ledger WHERE day = (now() AT TIME ZONE 'utc')::date`,
  );
  return Number(rows[0]?.total ?? 0);
}
