import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Progress, RateMeter, etaSeconds, finalLine, fit, formatCount, formatDuration, formatRate, progressLine, progressWanted, type ProgressStream, type Snapshot,
} from '../scripts/progress.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { NODE, ROOT } from './helpers/process.ts';

/**
 * Progress of long commands (scripts/progress.ts): the pure formatting
 * (counts, rates, time left, widths, the final line), the throttled redraws
 * on a recording stream with a clock the test moves, and one real command
 * (`npm run ingest`) on a pseudo-terminal (util-linux `script`) and on a pipe.
 */

const run = promisify(execFile);

/** A stream that records what is written, as a terminal (or not) of some width. */
function recorder(isTTY = true, columns = 80): ProgressStream & { out: string[] } {
  const out: string[] = [];
  return { isTTY, columns, out, write: (s: string) => out.push(s) };
}

const snap = (over: Partial<Snapshot> = {}): Snapshot => ({ label: 'import liar', done: 250, total: 1000, rate: 50, elapsedMs: 5000, unit: 'items', noun: 'claims', ...over });

describe('formatting', () => {
  it('writes counts with separators, and bytes in powers of 1000', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999, 'bytes')).toBe('999 B');
    expect(formatCount(1500, 'bytes')).toBe('1.5 kB');
    expect(formatCount(12_345_678, 'bytes')).toBe('12 MB');
    expect(formatCount(9_990_000, 'bytes')).toBe('10 MB');
    expect(formatCount(2.5e9, 'bytes')).toBe('2.5 GB');
  });

  it('writes rates per second, per minute under one a second, and a dash before there is one', () => {
    expect(formatRate(null)).toBe('–');
    expect(formatRate(Number.NaN)).toBe('–');
    // Nothing done in the last ten seconds: no rate to give a time left by.
    expect(formatRate(0)).toBe('–');
    expect(formatRate(1234.4, 'items', 'claims')).toBe('1,234 claims/s');
    expect(formatRate(2.54, 'items', 'claims')).toBe('2.5 claims/s');
    expect(formatRate(0.5, 'items', 'claims')).toBe('30 claims/min');
    expect(formatRate(0.05)).toBe('3.0/min');
    expect(formatRate(1_200_000, 'bytes')).toBe('1.2 MB/s');
  });

  it('writes durations in seconds, minutes and hours', () => {
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('–');
    expect(formatDuration(0.4)).toBe('0s');
    expect(formatDuration(59.4)).toBe('59s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3720)).toBe('1h02m');
    expect(formatDuration(100 * 3600)).toBe('100h00m');
  });

  it('gives the time left from what is left and the rate, or none when either is unknown', () => {
    expect(etaSeconds(250, 1000, 50)).toBe(15);
    expect(etaSeconds(1000, 1000, 50)).toBe(0);
    expect(etaSeconds(1200, 1000, 50)).toBe(0);
    expect(etaSeconds(250, null, 50)).toBeNull();
    expect(etaSeconds(250, 1000, null)).toBeNull();
    expect(etaSeconds(250, 1000, 0)).toBeNull();
  });

  it('draws the line with done of total, percentage, rate and time left, cut to the width', () => {
    expect(progressLine(snap(), 200)).toBe('import liar  250 of 1,000 claims  25%  50/s  15s left');
    expect(progressLine(snap({ detail: 'extract' }), 200)).toBe('import liar  250 of 1,000 claims  25%  50/s  15s left  · extract');
    // No total yet: the count and the time so far.
    expect(progressLine(snap({ total: null, rate: null }), 200)).toBe('import liar  250 claims  –  5s so far');
    expect(progressLine(snap({ unit: 'bytes', done: 1_500_000, total: 6_000_000, rate: 500_000, label: 'ingest a.jsonl' }), 200)).toBe('ingest a.jsonl  1.5 MB of 6.0 MB  25%  500 kB/s  9s left');
    // Never more than the width, so the terminal never wraps it onto a second line.
    for (const w of [20, 30, 45]) {
      const line = progressLine(snap({ detail: 'a long detail '.repeat(10) }), w);
      expect([...line].length).toBe(w);
      expect(line.endsWith('…')).toBe(true);
    }
    expect(fit('abc', 3)).toBe('abc');
    expect(fit('abcd', 3)).toBe('ab…');
    expect(fit('ééééé', 4)).toBe('ééé…');
  });

  it('ends with what was done, in how long, at what average rate', () => {
    expect(finalLine(snap({ done: 1000, elapsedMs: 20_000 }), 200)).toBe('import liar: 1,000 claims in 20s (50/s)');
    expect(finalLine(snap({ done: 0, elapsedMs: 0 }), 200)).toBe('import liar: 0 claims in 0s (–)');
    expect(finalLine(snap({ unit: 'bytes', done: 2_000_000, elapsedMs: 4000, detail: '800 lines' }), 200)).toBe('import liar: 2.0 MB in 4s (500 kB/s) · 800 lines');
  });

  it('measures the rate over the last ten seconds, none before a second has passed', () => {
    const m = new RateMeter(10_000);
    m.add(0, 0);
    m.add(500, 10);
    expect(m.rate()).toBeNull();
    m.add(2000, 40);
    expect(m.rate()).toBe(20);
    // A change of pace shows within the window: 100 a second from 20 s on.
    m.add(20_000, 400);
    for (let t = 21_000; t <= 32_000; t += 1000) m.add(t, 400 + ((t - 20_000) / 1000) * 100);
    expect(m.rate()).toBeCloseTo(100, 5);
  });
});

describe('Progress', () => {
  it('is shown only on a terminal, and never with --json or --quiet', () => {
    expect(progressWanted({ isTTY: true })).toBe(true);
    expect(progressWanted({ isTTY: false })).toBe(false);
    expect(progressWanted({})).toBe(false);
    expect(progressWanted({ isTTY: true }, { json: true })).toBe(false);
    expect(progressWanted({ isTTY: true }, { quiet: true })).toBe(false);
    for (const o of [{ isTTY: false }, { isTTY: true, json: true }, { isTTY: true, quiet: true }]) {
      const stream = recorder(o.isTTY);
      const p = new Progress({ label: 'x', total: 10, stream, json: 'json' in o, quiet: 'quiet' in o });
      p.update(5);
      p.log('a warning');
      p.finish();
      // Only the message of its own, never a progress or final line.
      expect(stream.out).toEqual(['a warning\n']);
    }
  });

  it('redraws one line in place, at most every interval, and ends it with the final line', () => {
    let now = 0;
    const stream = recorder(true, 60);
    const p = new Progress({ label: 'eval', total: 100, noun: 'subjects', stream, now: () => now, intervalMs: 100 });
    p.update(1);
    now = 50;
    p.update(2); // too soon: not drawn
    now = 1000;
    p.update(10);
    now = 1050;
    p.update(11); // too soon
    now = 2000;
    p.update(20, { detail: 'dev/pack-a: Jordan Avery' });
    expect(stream.out).toHaveLength(3);
    for (const w of stream.out) {
      expect(w.startsWith('\r\x1b[K')).toBe(true);
      expect(w).not.toContain('\n');
      expect([...w.slice(4)].length).toBeLessThanOrEqual(59);
    }
    expect(stream.out[0]).toBe('\r\x1b[Keval  1 of 100 subjects  1%  –  – left');
    expect(stream.out[1]).toBe('\r\x1b[Keval  10 of 100 subjects  10%  10/s  9s left');
    expect(stream.out[2]).toBe(`\r\x1b[K${fit('eval  20 of 100 subjects  20%  10/s  8s left  · dev/pack-a: Jordan Avery', 59)}`);
    // A message goes above the line, which is drawn again under it.
    p.log('pack.jsonl:7: skipped: not valid JSON');
    expect(stream.out[3]).toBe(`\r\x1b[Kpack.jsonl:7: skipped: not valid JSON\n${fit('eval  20 of 100 subjects  20%  10/s  8s left  · dev/pack-a: Jordan Avery', 59)}`);
    now = 10_000;
    p.finish({ detail: '2 packs' });
    expect(stream.out[4]).toBe('\r\x1b[Keval: 20 subjects in 10s (2.0/s) · 2 packs\n');
    // Nothing after the end.
    p.update(30);
    p.finish();
    expect(stream.out).toHaveLength(5);
  });

  it('takes a total learnt on the way, and clears its line when the work fails', () => {
    let now = 0;
    const stream = recorder(true, 100);
    const p = new Progress({ label: 'research Avery', noun: 'claims judged', stream, now: () => now });
    p.update(0, { detail: 'discover, 12 documents' });
    now = 500;
    p.update(0, { total: 40, detail: 'extract, 12 documents' });
    expect(stream.out).toEqual(['\r\x1b[Kresearch Avery  0 claims judged  –  0s so far  · discover, 12 documents', '\r\x1b[Kresearch Avery  0 of 40 claims judged  0%  –  – left  · extract, 12 documents']);
    p.abandon();
    expect(stream.out.at(-1)).toBe('\r\x1b[K');
    p.finish();
    expect(stream.out).toHaveLength(3);
  });
});

describe('npm run ingest, on a terminal and not', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('progress');
  });
  afterAll(() => db.drop());

  const env = () => ({ ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', FORCE_COLOR: '0' });
  const ingest = 'scripts/ingest.ts test/fixtures/minimal-pack.jsonl';

  it('shows progress and a final line on stderr when it is a terminal (a pseudo-terminal made by `script`)', async () => {
    // `script` runs the command on a new pseudo-terminal and copies everything it writes (stdout and stderr) to its own stdout.
    const { stdout } = await run('script', ['-qec', `${NODE} ${ingest}`, '/dev/null'], { cwd: ROOT, env: env(), timeout: 60_000 });
    expect(stdout).toMatch(/\r\x1b\[Kingest minimal-pack\.jsonl {2}896 B of 896 B {2}100%/);
    expect(stdout).toMatch(/\r\x1b\[Kingest minimal-pack\.jsonl: 896 B in \d+s \([^)]+\) · \d+ lines\r?\n/);
    // The summary on stdout as ever, on a line of its own after the final line.
    expect(stdout).toMatch(/lines\r?\ntest\/fixtures\/minimal-pack\.jsonl: \d+ lines; subjects \d+ read/);
  });

  it('shows none with --quiet on a terminal', async () => {
    const { stdout } = await run('script', ['-qec', `${NODE} ${ingest} --quiet`, '/dev/null'], { cwd: ROOT, env: env(), timeout: 60_000 });
    expect(stdout).not.toContain('\x1b[K');
    expect(stdout).not.toMatch(/ingest minimal-pack/);
    expect(stdout).toMatch(/^test\/fixtures\/minimal-pack\.jsonl: \d+ lines; subjects \d+ read/);
  });

  it('writes no progress at all when stderr is not a terminal', async () => {
    const { stdout, stderr } = await run(NODE, ingest.split(' '), { cwd: ROOT, env: env(), timeout: 60_000 });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^test\/fixtures\/minimal-pack\.jsonl: \d+ lines; subjects \d+ read, \d+ new or changed; documents \d+ read/);
    expect(stdout).not.toContain('\r');
  });

  it('refuses an unknown option with its usage', async () => {
    const res = await run(NODE, ['scripts/ingest.ts', '--loud', 'x.jsonl'], { cwd: ROOT, env: env(), timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect((res as { code: number }).code).toBe(2);
    expect((res as { stderr: string }).stderr).toMatch(/usage: npm run --silent ingest -- FILE\.jsonl \[FILE\.jsonl …\] \[--quiet\]/);
  });
});
