/**
 * bin/triage.js never runs a stale build silently: in a checkout whose newest source file is
 * newer than the build it would load, it stops with a message naming both and what to run.
 * Tried on a copy of the launcher beside a stand-in build, so the real checkout is untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIN } from './support';

function checkout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-stale-'));
  fs.mkdirSync(path.join(root, 'bin'));
  fs.mkdirSync(path.join(root, 'dist'));
  fs.mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
  fs.copyFileSync(BIN, path.join(root, 'bin', 'triage.js'));
  fs.writeFileSync(path.join(root, 'dist', 'cli.js'), "exports.main = async (args) => { process.stdout.write('ran ' + args.join(' ') + '\\n'); return 0; };\n");
  return root;
}

function run(root: string, env: NodeJS.ProcessEnv = {}): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [path.join(root, 'bin', 'triage.js'), 'tasks'], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TRIAGE_ALLOW_STALE_BUILD: '', ...env },
  });
}

test('a build older than the newest source file is refused with a message; a fresh one runs', () => {
  const root = checkout();
  try {
    const src = path.join(root, 'src', 'cli', 'main.ts');
    fs.writeFileSync(src, '// source\n');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'dist', 'cli.js'), old, old);
    const stale = run(root);
    assert.equal(stale.status, 1);
    assert.match(String(stale.stderr), /the build dist\/cli\.js is older than src\/cli\/main\.ts; run "npm run build" first/);
    assert.equal(String(stale.stdout), '', 'the stale build did not run');
    assert.match(String(run(root, { TRIAGE_ALLOW_STALE_BUILD: '1' }).stdout), /^ran tasks/, 'run anyway only when asked');
    const older = new Date(Date.now() - 120_000);
    fs.utimesSync(src, older, older);
    const fresh = run(root);
    assert.equal(fresh.status, 0, String(fresh.stderr));
    assert.match(String(fresh.stdout), /^ran tasks/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('an installed package (no src/ beside it) just runs its build', () => {
  const root = checkout();
  try {
    fs.rmSync(path.join(root, 'src'), { recursive: true });
    const r = run(root);
    assert.equal(r.status, 0, String(r.stderr));
    assert.match(String(r.stdout), /^ran tasks/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
