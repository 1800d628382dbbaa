/**
 * A throwaway PostgreSQL server for the tests and the benchmarks: the real server (Debian's
 * PostgreSQL 15 on these machines), never a mock. `startLocalPg()` finds its programs
 * (/usr/lib/postgresql/<version>/bin, or on PATH; never installs them: scripts/setup-test-deps.sh
 * does, and their absence is an error naming it), runs `initdb` into a fresh temp folder and starts
 * the server on a private unix socket in that folder (no TCP port), and `stop()` stops it and
 * removes the folder. `sharedLocalPg()` starts one per process and stops it when the process
 * exits, or uses the one a tier runner started for all its processes (SHARED_ENV).
 *
 * PostgreSQL refuses to run as root: as root the folder is handed to the `postgres` OS user
 * (Debian's package creates it; made with useradd when missing) and initdb, pg_ctl run under
 * it with runuser. The database superuser is `triage`, with trust authentication on the socket
 * only (the folder is reachable by root and that user alone).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface LocalPg {
  /** postgres://triage@/postgres?host=<socket dir>: the cluster's default database. */
  readonly url: string;
  /** The folder holding the unix socket (and the data folder). */
  readonly socketDir: string;
  readonly port: number;
  /** The URL of a new, empty database in this cluster. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): void;
}

const OS_USER = 'postgres';
const DB_USER = 'triage';

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function binDirs(): string[] {
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    // not installed there
  }
  return [...versions.map((v) => path.join(root, v, 'bin')), ...(process.env.PATH ?? '').split(path.delimiter)];
}

function findBin(): string | undefined {
  if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  return binDirs().find((d) => d && fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
}

function ensureOsUser(): void {
  if (spawnSync('id', ['-u', OS_USER], { stdio: 'ignore' }).status === 0) return;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER], { stdio: 'ignore' });
}

/** Runs a server program: as the postgres OS user when we are root. */
function runPg(bin: string, prog: string, args: string[]): void {
  const exe = path.join(bin, prog);
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', OS_USER, '--', exe, ...args]] : [exe, args];
  const r = spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${prog} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

function freePortNumber(): number {
  // The port only names the socket file (no TCP listener); a random one keeps clusters apart.
  return 20000 + Math.floor(Math.random() * 30000);
}

export async function startLocalPg(): Promise<LocalPg> {
  const bin = findBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL's initdb and pg_ctl were not found (in PG_BIN, /usr/lib/postgresql/<version>/bin or on the PATH). " +
        'Run "npm run setup:test" (scripts/setup-test-deps.sh), which installs Debian\'s postgresql package, or set PG_BIN to the folder holding them.',
    );
  }
  if (isRoot()) ensureOsUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-pg-'));
  fs.chmodSync(dir, 0o700);
  if (isRoot()) execFileSync('chown', [OS_USER, dir]);
  const data = path.join(dir, 'data');
  const port = freePortNumber();
  runPg(bin, 'initdb', ['-D', data, '-U', DB_USER, '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const opts = `-k ${dir} -p ${port} -c listen_addresses='' -c max_connections=200 -c shared_buffers=32MB`;
  runPg(bin, 'pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return localPgAt({ url: `postgres://${DB_USER}@/postgres?host=${encodeURIComponent(dir)}&port=${port}`, socketDir: dir, port }, () => {
    if (stopped) return;
    stopped = true;
    try {
      runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** Where a running server is: what a tier runner passes its test processes (SHARED_ENV). */
export interface LocalPgAddress {
  readonly url: string;
  readonly socketDir: string;
  readonly port: number;
}

function localPgAt(at: LocalPgAddress, stop: () => void): LocalPg {
  return {
    ...at,
    async createDatabase(name) {
      const db = name ?? `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const { Client } = await import('pg');
      const c = new Client({ connectionString: at.url });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${db.replace(/"/g, '""')}"`);
      } finally {
        await c.end();
      }
      return at.url.replace('/postgres?', `/${encodeURIComponent(db)}?`);
    },
    stop,
  };
}

/**
 * The environment variable through which a tier runner (scripts/test-tier.mjs) hands its test
 * processes one server it started for the whole tier: JSON of a LocalPgAddress. Each test still
 * gets a database of its own; the server's start-up (initdb, about 1.5 s) is paid once.
 */
export const SHARED_ENV = 'TRIAGE_TEST_PG_SERVER';

let shared: Promise<LocalPg> | undefined;

/** The server a tier runner named in `env` (SHARED_ENV), or undefined; a malformed value is an error naming it. */
export function localPgFromEnv(env: NodeJS.ProcessEnv = process.env): LocalPg | undefined {
  const raw = env[SHARED_ENV];
  if (!raw) return undefined;
  let at: LocalPgAddress;
  try {
    at = JSON.parse(raw) as LocalPgAddress;
  } catch (e) {
    throw new Error(`${SHARED_ENV} is not JSON of {url, socketDir, port}: ${(e as Error).message}`);
  }
  if (typeof at.url !== 'string' || typeof at.socketDir !== 'string' || typeof at.port !== 'number') {
    throw new Error(`${SHARED_ENV} must be JSON of {url, socketDir, port}; it is ${raw}`);
  }
  if (!fs.existsSync(at.socketDir)) throw new Error(`${SHARED_ENV} names a server whose folder ${at.socketDir} is gone (the tier runner stopped it?)`);
  // The runner owns it: stopping it is the runner's job, not a test process's.
  return localPgAt(at, () => undefined);
}

/** One server for this process (or the tier's, when the runner passed one), stopped when it exits. */
export function sharedLocalPg(): Promise<LocalPg> {
  shared ??= Promise.resolve()
    .then(() => localPgFromEnv())
    .then(async (fromEnv) => {
      if (fromEnv) return fromEnv;
      const own = await startLocalPg();
      process.once('exit', () => own.stop());
      return own;
    });
  return shared;
}
