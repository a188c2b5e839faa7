import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// Dates stay strings (YYYY-MM-DD) and bigint counts become numbers: the API
// speaks JSON, and no count here comes near 2^53.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
// bigint[] (OID 1016), e.g. jobs.callers: numbers too.
pg.types.setTypeParser(1016 as never, (v: string) => (v === '{}' ? [] : v.slice(1, -1).split(',').map((x) => (x === 'NULL' ? null : Number(x)))));

export function createPool(url: string, max = 10): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'reliability-scoring',
  });
  // An idle client that loses its server (PostgreSQL restarting) must not crash
  // the process; the next query gets a fresh connection or a clear error.
  pool.on('error', () => {});
  // pg-pool listens for errors only on idle clients. A checked-out client
  // (a transaction, a migration, a site snapshot) whose server goes away emits
  // 'error' with nobody listening, and that ends the process. The query in
  // flight still rejects with the error, and the dead client is no longer
  // queryable, so the pool drops it on release; this listener only keeps the
  // event from being fatal.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Runs fn in a transaction on one client; rolls back on any error. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
