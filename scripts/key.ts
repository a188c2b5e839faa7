/**
 * `npm run --silent key -- create NAME [--scope SCOPE]... | list | revoke NAME`
 *
 * `--scope` (repeatable, or a comma list) says what the key may do: `read`,
 * `respond`, `label`, `review` (core/keys.ts). Without it a key gets `read`,
 * `respond` and `label`, what every key could do before scopes existed;
 * `review` is only ever given by name. `list` shows each key's scopes.
 *
 * Works whether or not the service is running: with the embedded database it
 * uses the running server under DATA_DIR, or starts one for the moment. `create`
 * prints the new key and nothing else on stdout (it is shown only this once;
 * only its sha256 digest is stored). Messages go to stderr, the first of them
 * naming the database used: a key lives in one database, and a key made in
 * another than the service's gets 401. When DATA_DIR held no database and the
 * command had to make a new, empty one, it warns (the usual cause: run
 * without the DATA_DIR or DATABASE_URL the service runs with).
 */
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { DEFAULT_SCOPES, KeyNameTaken, SCOPES, createKey, isScope, listKeys, revokeKey, type Scope } from '../core/keys.ts';

const USAGE = `usage: npm run --silent key -- create NAME [--scope SCOPE[,SCOPE…]]… | list | revoke NAME\nSCOPE: ${SCOPES.join(', ')} (default: ${DEFAULT_SCOPES.join(',')})`;
const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,99}$/u;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** The `--scope` options (`--scope a,b`, `--scope=a`, repeatable) and what else was given. */
function takeScopes(argv: string[]): { args: string[]; scopes: Scope[] | null } {
  const args: string[] = [];
  let scopes: Scope[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const inline = /^--scopes?=(.*)$/.exec(arg);
    if (arg !== '--scope' && arg !== '--scopes' && !inline) {
      args.push(arg);
      continue;
    }
    const value = inline ? inline[1]! : argv[++i];
    const names = (value ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
    if (names.length === 0) fail(`--scope needs a value: one or more of ${SCOPES.join(', ')}, comma-separated\n${USAGE}`);
    for (const s of names) {
      if (!isScope(s)) fail(`unknown scope "${s}": a scope is one of ${SCOPES.join(', ')}\n${USAGE}`);
      scopes = [...(scopes ?? []), s];
    }
  }
  return { args, scopes };
}

async function main(argv: string[]): Promise<void> {
  const { args, scopes } = takeScopes(argv);
  const [command, name, ...rest] = args;
  if (!command || rest.length > 0) fail(USAGE);
  if (scopes && command !== 'create') fail(`--scope is for create only\n${USAGE}`);
  if ((command === 'create' || command === 'revoke') && (!name || !NAME.test(name))) {
    fail(`${USAGE}\nNAME: 1 to 100 letters, digits, spaces or . _ @ -, starting with a letter or digit`);
  }
  if (command === 'list' && name) fail(USAGE);
  if (!['create', 'list', 'revoke'].includes(command)) fail(USAGE);

  const config = loadConfig();
  const db = await openDatabase(config, { mode: 'share', poolMax: 2 });
  process.stderr.write(`key: using ${db.label}\n`);
  if (db.created) {
    process.stderr.write(
      `key: warning: ${config.dataDir} held no database, so this command created a new, empty one there. ` +
        'A service running with another DATA_DIR, or with DATABASE_URL, does not know keys made here and answers 401 "unknown or revoked". ' +
        'If that is not what you meant, run the command again with the service\'s DATA_DIR or DATABASE_URL.\n',
    );
  }
  try {
    if (command === 'create') {
      const { key, record } = await createKey(db.pool, name!, scopes ?? DEFAULT_SCOPES);
      process.stdout.write(`${key}\n`);
      process.stderr.write(`key: "${record.name}" made with scopes ${record.scopes.join(',')}\n`);
    } else if (command === 'revoke') {
      if (!(await revokeKey(db.pool, name!))) {
        process.exitCode = 1;
        process.stderr.write(`no live key named "${name}"\n`);
      } else {
        process.stderr.write(`revoked "${name}"\n`);
      }
    } else {
      const keys = await listKeys(db.pool);
      const rows = keys.map((k) => [k.name, `${k.prefix}…`, k.scopes.join(','), k.createdAt, k.revokedAt ? `revoked ${k.revokedAt}` : 'live']);
      const header = ['NAME', 'KEY', 'SCOPES', 'CREATED', 'STATE'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const r of [header, ...rows]) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
    }
  } catch (err) {
    if (err instanceof KeyNameTaken) {
      process.exitCode = 1;
      process.stderr.write(`${err.message}\n`);
    } else {
      throw err;
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((err: Error) => fail(`key: ${err.message}`, 1));
