/**
 * An install a killed life left running: the next life stops its whole process group before it
 * installs again in the same worktree, and never kills a process that merely reuses its pid.
 * Real processes (sleep in its own group), so this is in the slow tier.
 */
import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { once } from 'node:events';
import { groupAlive, recordStepOwner, stopOrphanedStep } from '../../../src/deps/step-owner';
import { prepareWorktree } from '../../../src/deps/prepare';
import { DEFAULT_DEPS } from '../../../src/deps/options';
import { tempDir } from '../../support/temp-dir';

/** A stand-in for an orphaned install: a shell in its own process group with a child of its own. */
function orphan(t: TestContext): ChildProcess {
  const c = spawn('sh', ['-c', 'sleep 60 & wait'], { detached: true, stdio: 'ignore' });
  t.after(() => {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  });
  return c;
}

test('an install left running is stopped with its whole group, and its record forgotten', async (t) => {
  const dir = tempDir(t, 'triage-orphan-');
  const file = path.join(dir, 'c.ready.json.pid');
  const c = orphan(t);
  const exited = once(c, 'exit');
  recordStepOwner(file, c.pid!);
  assert.equal(await stopOrphanedStep(file), c.pid);
  const [, signal] = await exited;
  assert.equal(signal, 'SIGKILL');
  assert.equal(groupAlive(c.pid!), false, 'its child (the sleep) is gone too');
  assert.equal(fs.existsSync(file), false);
  assert.equal(await stopOrphanedStep(file), undefined, 'nothing left to stop');
});

test('a pid now another process’s (its start time differs), a torn record or a dead pid: nothing is killed, the record is forgotten', async (t) => {
  const dir = tempDir(t, 'triage-orphan-');
  const file = path.join(dir, 'c.ready.json.pid');
  const c = orphan(t);
  fs.writeFileSync(file, JSON.stringify({ pid: c.pid, start: '1' }));
  assert.equal(await stopOrphanedStep(file), undefined);
  assert.equal(groupAlive(c.pid!), true, 'a process that only has the pid is left alone');
  assert.equal(fs.existsSync(file), false);
  fs.writeFileSync(file, '{"pid": 12');
  assert.equal(await stopOrphanedStep(file), undefined);
  assert.equal(fs.existsSync(file), false);
});

test('prepareWorktree stops the install a killed life left in the worktree before it installs again, and says so', async (t) => {
  const root = tempDir(t, 'triage-orphan-prepare-');
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "added 0 packages"\n', { mode: 0o755 });
  const checkoutTop = path.join(root, 'checkout');
  const worktreeTop = path.join(root, 'worktrees', 'run', 'c');
  for (const d of [checkoutTop, worktreeTop]) {
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'package.json'), '{}');
    fs.writeFileSync(path.join(d, 'package-lock.json'), '{}');
  }
  const record = `${worktreeTop}.ready.json`;
  const c = orphan(t);
  const exited = once(c, 'exit');
  recordStepOwner(`${record}.pid`, c.pid!);
  const said: string[] = [];
  const r = await prepareWorktree({
    checkoutTop,
    worktreeTop,
    prefix: '',
    options: DEFAULT_DEPS,
    record,
    log: `${worktreeTop}.install.log`,
    made: false,
    env: { PATH: `${bin}:/usr/bin:/bin` },
    progress: (x) => said.push(x),
  });
  await exited;
  assert.equal(said[0], `stopped the install an earlier, killed life left running (pid ${c.pid})`);
  assert.match(r.steps[0].what, /^npm ci /);
  assert.equal(fs.existsSync(`${record}.pid`), false, 'the install ended: nobody owns the step');
});
