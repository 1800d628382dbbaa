/**
 * spawnCapture settles when its child exits, its time runs out or the run is cancelled, even
 * when a process the child started left its process group (setsid) and still holds the output
 * pipes. Each test records the escaped process's pid in a file and kills it afterwards.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { spawnCapture } from '../../src/runners/spawn-capture';

const POSIX = process.platform !== 'win32';
/** Only a guard so that a regression fails instead of hanging the suite; nothing is measured. */
const GUARD = { timeout: 60_000, skip: !POSIX && 'needs setsid' };

/** Whether `pid` runs (a zombie nobody reaped yet does not count). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc here: kill(pid, 0) is all we know
  }
}

/** The pid the escaped process writes to `file`, once it is there (undefined if it never comes). */
async function pidIn(file: string): Promise<number | undefined> {
  for (let i = 0; i < 1000; i++) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
    if (/^\d+$/.test(text)) return Number(text);
    await delay(20);
  }
  return undefined;
}

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-spawn-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temp folder with the pid file of the escaped process, which is killed (and the folder removed) when the test ends. */
function escapee(t: TestContext): { dir: string; pidFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-spawn-'));
  const pidFile = path.join(dir, 'escaped.pid');
  t.after(async () => {
    const pid = await pidIn(pidFile);
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, pidFile };
}

test('settles when the child exits, though a process it started outside its group holds the output open', GUARD, async (t) => {
  const { dir, pidFile } = escapee(t);
  // The shell exits only once the sleep has left its group (it writes its pid after setsid).
  const command = `setsid sh -c 'echo $$ > escaped.pid; exec sleep 1000' & while [ ! -s escaped.pid ]; do sleep 0.05; done; echo started; exit 3`;
  const r = await spawnCapture({ command, args: [], shell: true, cwd: dir, env: process.env, timeoutMs: 600_000 });
  const pid = await pidIn(pidFile);
  assert.ok(pid !== undefined && alive(pid), 'the escaped process still runs: the result did not wait for it');
  assert.equal(r.exitCode, 3);
  assert.equal(r.timedOut, false);
  assert.match(r.text, /^started\n/);
  assert.match(r.text, /still held it open/);
});

/**
 * A foreground chain the group kill cannot end: the escaped sleep holds the pipes, the shell
 * waits for it. The time limit leaves the sleep ample time to leave the group first.
 */
const FOREGROUND = `setsid sh -c 'echo $$ > escaped.pid; exec sleep infinity'; echo never`;

test('a time limit ends the run though the foreground process left the group', GUARD, async (t) => {
  const { dir, pidFile } = escapee(t);
  const r = await spawnCapture({ command: FOREGROUND, args: [], shell: true, cwd: dir, env: process.env, timeoutMs: 5000 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, -1);
  assert.doesNotMatch(r.text, /never/);
  const pid = await pidIn(pidFile);
  assert.ok(pid !== undefined && alive(pid), 'the escaped process still runs: the result did not wait for it');
});

test('cancelling ends the run though the foreground process left the group', GUARD, async (t) => {
  const { dir, pidFile } = escapee(t);
  const ac = new AbortController();
  const running = spawnCapture({ command: FOREGROUND, args: [], shell: true, cwd: dir, env: process.env, timeoutMs: 600_000, signal: ac.signal });
  const pid = await pidIn(pidFile);
  assert.ok(pid !== undefined, 'the escaped process started');
  ac.abort(new Error('stop now'));
  await assert.rejects(running, /stop now/);
  assert.equal(alive(pid), true, 'the escaped process still runs: the result did not wait for it');
});

test('a child that exits normally gives all its output and its exit code', async (t) => {
  const dir = tempDir(t);
  const r = await spawnCapture({
    command: process.execPath,
    args: ['-e', "process.stdout.write('x'.repeat(200000)); process.stderr.write('done'); process.exitCode = 2"],
    cwd: dir,
    env: process.env,
    timeoutMs: 600_000,
  });
  assert.equal(r.exitCode, 2);
  assert.equal(r.timedOut, false);
  assert.equal(r.text.length, 200004);
  assert.doesNotMatch(r.text, /held it open/);
});
