/**
 * Progress of long work on a terminal (import, ingest, measure, research,
 * eval): done of total, rate, time left, redrawn on one line of stderr, and a
 * final line when the work ends. Shown only when stderr is a terminal and the
 * command was given neither --json nor --quiet: a log file, a pipe or a
 * script reading the output gets no progress at all, not even a final line.
 *
 * The formatting functions are pure (test/progress.test.ts); Progress holds
 * the clock, the throttle and the stream, each of which a test may pass in.
 */

export type Unit = 'items' | 'bytes';
export type ProgressStream = { isTTY?: boolean; columns?: number; write(chunk: string): unknown };

/** Whether to show progress: only on a terminal, and never with --json or --quiet. */
export function progressWanted(stream: Pick<ProgressStream, 'isTTY'>, o: { json?: boolean | undefined; quiet?: boolean | undefined } = {}): boolean {
  return stream.isTTY === true && !o.json && !o.quiet;
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** A count as read: "1,234", or for bytes "1.2 MB" (powers of 1000, as `ls -h --si`). */
export function formatCount(n: number, unit: Unit = 'items'): string {
  if (unit === 'items') return Math.round(n).toLocaleString('en');
  let v = n;
  let i = 0;
  while (v >= 1000 && i < BYTE_UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v < 9.95 ? v.toFixed(1) : Math.round(v)} ${BYTE_UNITS[i]}`;
}

/** A rate per second: "1,234 claims/s", "2.5 claims/s", "12 claims/min" under one a second, "1.2 MB/s"; "–" when not known yet. */
export function formatRate(perSecond: number | null, unit: Unit = 'items', noun = ''): string {
  if (perSecond === null || !Number.isFinite(perSecond) || perSecond <= 0) return '–';
  if (unit === 'bytes') return `${formatCount(perSecond, 'bytes')}/s`;
  const what = noun ? ` ${noun}` : '';
  if (perSecond >= 9.95) return `${formatCount(perSecond)}${what}/s`;
  if (perSecond >= 1) return `${perSecond.toFixed(1)}${what}/s`;
  const perMinute = perSecond * 60;
  return `${perMinute >= 9.95 ? Math.round(perMinute) : perMinute.toFixed(1)}${what}/min`;
}

/** A duration: "8s", "3m05s", "1h02m"; "–" when not known. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Seconds left at `rate` a second; null when the total or the rate is not known (or there is no rate yet). */
export function etaSeconds(done: number, total: number | null, rate: number | null): number | null {
  if (total === null || rate === null || !(rate > 0)) return null;
  return Math.max(0, total - done) / rate;
}

/** At most `width` characters (code points), an ellipsis marking a cut. */
export function fit(line: string, width: number): string {
  const chars = [...line];
  if (chars.length <= width) return line;
  return width <= 1 ? chars.slice(0, Math.max(0, width)).join('') : `${chars.slice(0, width - 1).join('')}…`;
}

export type Snapshot = { label: string; done: number; total: number | null; rate: number | null; elapsedMs: number; unit: Unit; noun: string; detail?: string | undefined };

/**
 * The line redrawn while the work runs, at most `width` characters:
 * "ingest pack.jsonl  1.2 MB of 5.0 MB  24%  1.0 MB/s  3s left  · 8,000 lines".
 */
export function progressLine(s: Snapshot, width: number): string {
  const noun = s.unit === 'items' && s.noun ? ` ${s.noun}` : '';
  const total = s.total !== null ? Math.max(s.total, s.done) : null;
  const parts = [s.label, total !== null ? `${formatCount(s.done, s.unit)} of ${formatCount(total, s.unit)}${noun}` : `${formatCount(s.done, s.unit)}${noun}`];
  if (total !== null && total > 0) parts.push(`${Math.floor((100 * s.done) / total)}%`);
  parts.push(formatRate(s.rate, s.unit));
  if (total !== null) parts.push(`${formatDuration(etaSeconds(s.done, total, s.rate))} left`);
  else parts.push(`${formatDuration(s.elapsedMs / 1000)} so far`);
  return fit(`${parts.join('  ')}${s.detail ? `  · ${s.detail}` : ''}`, width);
}

/** The line left on the screen when the work is over: "ingest pack.jsonl: 5.0 MB in 4s (1.2 MB/s) · 40,000 lines". */
export function finalLine(s: Snapshot, width: number): string {
  const noun = s.unit === 'items' && s.noun ? ` ${s.noun}` : '';
  const seconds = s.elapsedMs / 1000;
  const rate = seconds > 0 ? s.done / seconds : null;
  return fit(`${s.label}: ${formatCount(s.done, s.unit)}${noun} in ${formatDuration(seconds)} (${formatRate(rate, s.unit)})${s.detail ? ` · ${s.detail}` : ''}`, width);
}

/**
 * The rate over the last `windowMs` (ten seconds): recent enough to follow a
 * change of pace, long enough not to jump with every batch. Before a second
 * has passed there is no rate.
 */
export class RateMeter {
  private readonly samples: { t: number; done: number }[] = [];
  private readonly windowMs: number;
  constructor(windowMs = 10_000) {
    this.windowMs = windowMs;
  }
  add(t: number, done: number): void {
    this.samples.push({ t, done });
    // Keep one sample older than the window, so the window is always spanned.
    while (this.samples.length > 2 && this.samples[1]!.t <= t - this.windowMs) this.samples.shift();
  }
  rate(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.t - first.t < 1000) return null;
    return (last.done - first.done) / ((last.t - first.t) / 1000);
  }
}

export type ProgressOptions = {
  label: string;
  total?: number | null;
  unit?: Unit;
  /** What is counted, for items: "claims", "subjects". */
  noun?: string;
  json?: boolean | undefined;
  quiet?: boolean | undefined;
  stream?: ProgressStream;
  now?: () => number;
  /** The least time between two redraws (the final line is always drawn). */
  intervalMs?: number;
};

const CLEAR = '\r\x1b[K';

export class Progress {
  readonly enabled: boolean;
  private readonly stream: ProgressStream;
  private readonly now: () => number;
  private readonly interval: number;
  private readonly meter = new RateMeter();
  private readonly started: number;
  private snapshot: Snapshot;
  private lastDraw = -Infinity;
  private shown = false;
  private finished = false;
  private readonly onExit = () => {
    // Interrupted mid-line (Ctrl-C, process.exit): the shell's prompt starts on a line of its own.
    if (this.shown) this.stream.write('\n');
  };

  constructor(o: ProgressOptions) {
    this.stream = o.stream ?? process.stderr;
    this.now = o.now ?? (() => performance.now());
    this.interval = o.intervalMs ?? 100;
    this.enabled = progressWanted(this.stream, o);
    this.started = this.now();
    this.snapshot = { label: o.label, done: 0, total: o.total ?? null, rate: null, elapsedMs: 0, unit: o.unit ?? 'items', noun: o.noun ?? '' };
    this.meter.add(this.started, 0);
    if (this.enabled) process.once('exit', this.onExit);
  }

  private get width(): number {
    return Math.max(20, (this.stream.columns || 80) - 1);
  }

  /** Work done so far (and the total, once known; a detail shown after the figures). Redrawn at most every intervalMs. */
  update(done: number, o: { total?: number | null; detail?: string } = {}): void {
    if (this.finished) return;
    const t = this.now();
    this.meter.add(t, done);
    this.snapshot = { ...this.snapshot, done, ...(o.total !== undefined ? { total: o.total } : {}), ...(o.detail !== undefined ? { detail: o.detail } : {}), rate: this.meter.rate(), elapsedMs: t - this.started };
    if (!this.enabled || t - this.lastDraw < this.interval) return;
    this.lastDraw = t;
    this.stream.write(`${CLEAR}${progressLine(this.snapshot, this.width)}`);
    this.shown = true;
  }

  /** A message of its own (a skipped line, a warning) printed above the progress line, which is then drawn again. */
  log(text: string): void {
    if (!this.enabled || !this.shown) {
      this.stream.write(text.endsWith('\n') ? text : `${text}\n`);
      return;
    }
    this.stream.write(`${CLEAR}${text.endsWith('\n') ? text : `${text}\n`}${progressLine(this.snapshot, this.width)}`);
  }

  /** Ends the work without a final line (it failed; its error says so): the progress line is cleared. */
  abandon(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.enabled) return;
    process.off('exit', this.onExit);
    if (this.shown) this.stream.write(CLEAR);
    this.shown = false;
  }

  /** Ends the work: the final line (done, time taken, average rate) replaces the progress line. */
  finish(o: { detail?: string } = {}): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.enabled) return;
    process.off('exit', this.onExit);
    const s = { ...this.snapshot, ...(o.detail !== undefined ? { detail: o.detail } : {}), elapsedMs: this.now() - this.started };
    this.stream.write(`${CLEAR}${finalLine(s, this.width)}\n`);
    this.shown = false;
  }
}
