import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { createRun, listRuns, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { LockCompromisedError, LockedError } from '../../src/core/errors';
import { SavePoint } from '../../src/store/save-points';
import { OWNER_FILE, currentOwner, ownerStatus, readOwner, type LockOwner } from '../../src/disk/lock-owner';
import { currentBoot } from '../../src/disk/boot';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

const HOLDER = path.join(__dirname, 'helpers', 'lock-holder.js');

async function newRun(t: import('node:test').TestContext): Promise<{ dir: string; runId: string; lockDir: string }> {
  const dir = tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  return { dir, runId: s.runId, lockDir: `${runPath(dir, s.runId)}.lock` };
}

function holder(t: import('node:test').TestContext, args: string[]): ChildProcess {
  const child = spawn(process.execPath, [HOLDER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

async function firstLine(child: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  for await (const chunk of child.stdout!) {
    out += chunk;
    const nl = out.indexOf('\n');
    if (nl >= 0) return out.slice(0, nl);
  }
  throw new Error(`child ended without output; stderr: ${err}`);
}

/** A pid that certainly belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(c, 'exit');
  return c.pid!;
}

async function plantLock(lockDir: string, owner: Partial<LockOwner> | string | undefined, ageMs = 0): Promise<void> {
  await fs.mkdir(lockDir);
  if (owner !== undefined) {
    const full =
      typeof owner === 'string' ? owner : JSON.stringify({ pid: 1, hostname: os.hostname(), nonce: 'n0', acquiredAt: '2025-01-01T00:00:00Z', ...owner });
    await fs.writeFile(path.join(lockDir, OWNER_FILE), full);
  }
  if (ageMs > 0) {
    const old = new Date(Date.now() - ageMs);
    await fs.utimes(lockDir, old, old);
  }
}

test('a second openRun in the same process gets LockedError naming the owner', async (t) => {
  const { dir, runId } = await newRun(t);
  const first = await openRun(dir, runId);
  await assert.rejects(openRun(dir, runId), (e: unknown) => {
    assert.ok(e instanceof LockedError);
    assert.match(e.owner ?? '', new RegExp(`pid ${process.pid} on host `));
    assert.match(e.message, /open in another process/);
    return true;
  });
  assert.equal((await listRuns(dir))[0].locked, true);
  await first.handle.close();
  assert.equal((await listRuns(dir))[0].locked, false);
  const again = await openRun(dir, runId);
  await again.handle.close();
});

test('a second process gets LockedError at once while the run is open here', async (t) => {
  const { dir, runId } = await newRun(t);
  const { handle } = await openRun(dir, runId);
  t.after(() => handle.close());
  const child = holder(t, [dir, runId, 'try']);
  const res = JSON.parse(await firstLine(child)) as { ok: boolean; code?: string; owner?: string };
  assert.equal(res.ok, false);
  assert.equal(res.code, 'locked');
  assert.match(res.owner ?? '', new RegExp(`pid ${process.pid} `));
});

test('a lock held by another live process refuses openRun here', async (t) => {
  const { dir, runId } = await newRun(t);
  const child = holder(t, [dir, runId, 'hold']);
  assert.equal(await firstLine(child), 'held');
  await assert.rejects(openRun(dir, runId), (e: unknown) => e instanceof LockedError && (e.owner ?? '').includes(`pid ${child.pid} `));
  assert.equal((await listRuns(dir))[0].locked, true);
});

test('the lock of a SIGKILLed process is reclaimed at once, without waiting out the stale period', async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const child = holder(t, [dir, runId, 'hold']);
  assert.equal(await firstLine(child), 'held');
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  assert.equal((await readOwner(lockDir))?.pid, child.pid, 'the dead process left its lock behind');
  assert.equal((await listRuns(dir))[0].locked, false, 'a dead owner does not count as locked');
  // A stale period of a minute: only the owner check can explain an immediate success.
  const { handle } = await openRun(dir, runId, { staleMs: 60_000 });
  assert.equal((await readOwner(lockDir))?.pid, process.pid);
  await handle.close();
});

test('a lock whose pid now belongs to another process (different start time) is reclaimed', { skip: process.platform !== 'linux' }, async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const me = await currentOwner();
  // Control: the same pid with its true start time is a live owner, and is respected.
  await plantLock(lockDir, { pid: process.pid, startTime: me.startTime, nonce: 'live' });
  assert.equal(await ownerStatus((await readOwner(lockDir))!), 'alive');
  await assert.rejects(openRun(dir, runId, { staleMs: 60_000 }), LockedError);
  await fs.rm(lockDir, { recursive: true });
  // The same pid with another start time: the pid was reused, its owner is dead.
  await plantLock(lockDir, { pid: process.pid, startTime: '1', nonce: 'reused' });
  assert.equal(await ownerStatus((await readOwner(lockDir))!), 'dead');
  const { handle } = await openRun(dir, runId, { staleMs: 60_000 });
  const now = await readOwner(lockDir);
  assert.equal(now?.startTime, me.startTime, 'the lock is ours now');
  assert.notEqual(now?.nonce, 'reused');
  await handle.close();
});

test('a lock from before a reboot is reclaimed', { skip: process.platform !== 'linux' }, async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const me = await currentOwner();
  await plantLock(lockDir, { pid: process.pid, startTime: me.startTime, bootId: me.bootId, nonce: 'this-boot' });
  await assert.rejects(openRun(dir, runId, { staleMs: 60_000 }), LockedError, 'this boot, a live pid: respected');
  await fs.rm(lockDir, { recursive: true });
  await plantLock(lockDir, { pid: process.pid, startTime: me.startTime, bootId: 'another-boot', nonce: 'old-boot' });
  assert.equal(await ownerStatus((await readOwner(lockDir))!), 'dead');
  const { handle } = await openRun(dir, runId, { staleMs: 60_000 });
  const now = await readOwner(lockDir);
  assert.equal(now?.bootId, me.bootId);
  assert.notEqual(now?.nonce, 'old-boot', 'the lock is ours now');
  await handle.close();
});

test('two processes reclaiming one dead lock: exactly one wins', async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  await plantLock(lockDir, { pid: await deadPid() });
  const results = await Promise.allSettled([openRun(dir, runId, { staleMs: 60_000 }), openRun(dir, runId, { staleMs: 60_000 })]);
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(won.length, 1);
  assert.equal(lost.length, 1);
  assert.ok(lost[0].reason instanceof LockedError, String(lost[0].reason));
  for (const r of won) await (r as PromiseFulfilledResult<Awaited<ReturnType<typeof openRun>>>).value.handle.close();
});

test('a fresh lock owned on another host is respected; once stale, proper-lockfile reclaims it', async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  await plantLock(lockDir, { hostname: 'elsewhere.example', pid: 4242 });
  await assert.rejects(
    openRun(dir, runId, { staleMs: 2000 }),
    (e: unknown) => e instanceof LockedError && /pid 4242 on host elsewhere\.example/.test(e.message),
  );
  const old = new Date(Date.now() - 60_000);
  await fs.utimes(lockDir, old, old);
  const { handle } = await openRun(dir, runId, { staleMs: 2000 });
  assert.equal((await readOwner(lockDir))?.pid, process.pid);
  await handle.close();
});

test('a fresh lock without a readable owner is respected', async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  await plantLock(lockDir, '{"pid": 12');
  await assert.rejects(openRun(dir, runId), (e: unknown) => e instanceof LockedError && e.owner === undefined);
  assert.equal((await listRuns(dir))[0].locked, true);
});

test('a lock without a readable owner, last touched before this machine booted, is reclaimed at once', { skip: process.platform !== 'linux' }, async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const booted = (await currentBoot()).startedMs;
  assert.ok(booted !== undefined, 'Linux gives the boot time');
  await plantLock(lockDir, ''); // the record never reached the disk
  const before = new Date(booted - 60_000);
  await fs.utimes(lockDir, before, before);
  assert.equal((await listRuns(dir))[0].locked, false, 'a lock from before the boot does not count as locked');
  const { handle } = await openRun(dir, runId, { staleMs: 60_000 });
  assert.equal((await readOwner(lockDir))?.pid, process.pid);
  await handle.close();
});

test('a compromised lock: assertHeld throws, save refuses, onCompromised is told, close leaves the new holder alone', async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const before = await fs.readFile(runPath(dir, runId));
  let told: LockCompromisedError | undefined;
  let tell!: () => void;
  const compromised = new Promise<void>((resolve) => (tell = resolve));
  const { handle, state } = await openRun(dir, runId, {
    staleMs: 2000,
    onCompromised: (e) => {
      told = e;
      tell();
    },
  });
  // proper-lockfile's refresh timer is unref'd: keep the event loop alive while waiting for it.
  const keepAlive = setInterval(() => undefined, 1000);
  t.after(() => clearInterval(keepAlive));
  // Pull the lock directory away: its next refresh (within staleMs/2) finds it gone.
  handle.assertHeld();
  await fs.rm(lockDir, { recursive: true });
  await compromised;
  clearInterval(keepAlive);
  assert.ok(told instanceof LockCompromisedError);
  assert.equal(told.runId, runId);
  assert.throws(() => handle.assertHeld(), LockCompromisedError);
  state.turns = 99;
  await assert.rejects(handle.save(state, SavePoint.ResultSaved), LockCompromisedError);
  assert.deepEqual(await fs.readFile(runPath(dir, runId)), before, 'nothing was written');
  const next = await openRun(dir, runId);
  await handle.close();
  await fs.stat(lockDir); // the new holder's lock is still there
  assert.throws(() => handle.assertHeld(), LockCompromisedError);
  await next.handle.close();
  assert.equal((await readRun(dir, runId)).turns, 0);
});

test('a closed handle refuses to save', async (t) => {
  const { dir, runId } = await newRun(t);
  const { handle, state } = await openRun(dir, runId);
  await handle.close();
  await handle.close();
  await assert.rejects(handle.save(state, SavePoint.ResultSaved), LockCompromisedError);
});
