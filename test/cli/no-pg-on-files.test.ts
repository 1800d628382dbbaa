/**
 * The CLI on local files loads no PostgreSQL code: neither the client (node_modules/pg and its
 * pg-* parts) nor the store's PostgreSQL backend (src/store/pg). The compiled CLI (out/, not the
 * bundle, which holds every module in one file) runs with a preload that writes the modules it
 * loaded (require.cache) when the process exits. A postgres:// store in the same setup loads them:
 * the observation sees what it looks for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, triage, lastJson } from './support';
import { tempDir } from '../support/temp-dir';

const MAIN = path.join(ROOT, 'out', 'src', 'cli', 'main.js');
const PG_CLIENT = /[\\/]node_modules[\\/](pg|pg-pool|pg-protocol|pg-types|pg-connection-string|pgpass)[\\/]/;
const PG_BACKEND = /[\\/]src[\\/]store[\\/]pg[\\/]/;

/** Runs the compiled CLI with `args`; its exit status and the modules it had loaded when it exited. */
function loadedBy(dir: string, args: string[]): { status: number | null; stderr: string; modules: string[] } {
  const preload = path.join(dir, 'loaded.js');
  const out = path.join(dir, 'loaded.json');
  fs.writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const r = spawnSync(process.execPath, ['--require', preload, MAIN, ...args], {
    encoding: 'utf8',
    input: '',
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', PGPASSWORD: '', PGCONNECT_TIMEOUT: '5' },
    timeout: 180_000,
  });
  return { status: r.status, stderr: r.stderr, modules: JSON.parse(fs.readFileSync(out, 'utf8')) as string[] };
}

function pgModules(modules: string[]): string[] {
  return modules.filter((m) => PG_CLIENT.test(m) || PG_BACKEND.test(m));
}

test('a whole run on local files, then its status, loads no module of pg nor src/store/pg', (t) => {
  const dir = tempDir(t, 'triage-nopg-');
  const state = path.join(dir, 'state');
  const main = lastJson<{ tasks: { name: string; main: boolean }[] }>(triage(['tasks', '--json']).stdout).tasks.find((x) => x.main)!;
  const run = loadedBy(dir, ['run', '--task', main.name, '--state', state, '--approve', 'yes', '--json']);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(
    run.modules.some((m) => /[\\/]src[\\/]store[\\/]files[\\/]file-run-store\.js$/.test(m)),
    'the run used the file store',
  );
  assert.deepEqual(pgModules(run.modules), []);
  const status = loadedBy(dir, ['status', '--state', state, '--json']);
  assert.equal(status.status, 0, status.stderr);
  assert.deepEqual(pgModules(status.modules), []);
});

test('a postgres:// store loads the client and the backend (the check above sees them when they are there)', (t) => {
  const dir = tempDir(t, 'triage-pg-');
  // Port 1 on this host: nothing listens, the connection is refused at once.
  const r = loadedBy(dir, ['status', '--store', 'postgres://triage@127.0.0.1:1/none', '--json']);
  assert.notEqual(r.status, 0);
  const loaded = pgModules(r.modules);
  assert.ok(
    loaded.some((m) => PG_CLIENT.test(m)),
    'node_modules/pg loaded',
  );
  assert.ok(
    loaded.some((m) => PG_BACKEND.test(m)),
    'src/store/pg loaded',
  );
});
