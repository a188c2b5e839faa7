import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodVersion } from '../core/method/version.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({}, 'methodology');
  headers = bearer(await t.key());
});
afterAll(() => t.close());

describe('GET /v1/methodology', () => {
  it('json (default): the method version, the published method, and says plainly that nothing is measured yet', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/methodology', headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.method_version).toBe(methodVersion());
    expect(body.method_version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(body.markdown).toMatch(/^# How the reliability score is made/);
    expect(body.measurement).toBeNull();
    expect(body.measurement_note).toMatch(/No measurement has been published yet/);
  });

  it('markdown: a first line naming the method version, then the published text itself, unchanged', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/methodology?format=markdown', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    const [first, blank, ...rest] = res.body.split('\n');
    expect(first).toBe(`Method version: ${methodVersion()}`);
    expect(first).toMatch(/^Method version: \d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(blank).toBe('');
    // The same text the JSON form carries (the text the version's build id hashes).
    const json = (await t.app.inject({ method: 'GET', url: '/v1/methodology', headers })).json();
    expect(rest.join('\n')).toBe(json.markdown);
    expect(json.method_version).toBe(methodVersion());
    expect(res.body).toMatch(/## Outcomes and credits/);
  });

  it('html: rendered with marked, with the method version and the measurement state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/methodology?format=html', headers });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<h2[^>]*>Outcomes and credits<\/h2>/);
    expect(res.body).toContain(methodVersion());
    expect(res.body).toMatch(/No measurement has been published yet/);
  });

  it('shows the latest measurement once one is published', async () => {
    await t.db.pool.query(`INSERT INTO measurements (method_version, body) VALUES ($1, $2)`, [
      methodVersion(),
      JSON.stringify({ datasets: [{ dataset: 'gold-labels', n: 40, coverage: 0.6, agreement: 0.7 }], note: 'test measurement' }),
    ]);
    const body = (await t.app.inject({ method: 'GET', url: '/v1/methodology', headers })).json();
    expect(body.measurement).toMatchObject({ method_version: methodVersion(), datasets: [{ dataset: 'gold-labels', n: 40 }] });
    expect(body.measurement_note).toMatch(/Agreement is not accuracy/);
  });
});
