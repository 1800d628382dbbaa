/**
 * Reading crash reports for grouping: a named pipe in the folder is skipped (not waited on
 * forever), a symlink out of the workspace is not followed (its text never reaches the groups or
 * the prompt), and a report is read only up to MAX_REPORT_BYTES, into a buffer its size.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { groupCrashes } from '../../src/crashes/group';
import { MAX_REPORT_BYTES } from '../../src/crashes/read-report';
import { crashFolderTask } from '../../src/triage/tasks/crash-folder';
import { tempDir } from '../support/temp-dir';

const trace = (msg: string, fn = 'f'): string => `TypeError: ${msg}\n    at ${fn} (/app/src/a.js:1:1)\n    at main (/app/src/a.js:9:1)\n`;

/** A workspace with src/a.js and an empty logs/ folder, inside a temp folder (whose other entries are outside the workspace). */
function workspace(t: TestContext): { root: string; ws: string; logs: string } {
  const root = tempDir(t, 'triage-reports-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), '');
  fs.mkdirSync(path.join(ws, 'logs'));
  return { root, ws, logs: path.join(ws, 'logs') };
}

test(
  'a named pipe among the reports is skipped with its reason, not read (which would wait forever)',
  { skip: process.platform === 'win32', timeout: 60_000 },
  async (t) => {
    const { ws, logs } = workspace(t);
    fs.writeFileSync(path.join(logs, 'a.log'), trace('x is undefined'));
    const fifo = path.join(logs, 'pipe.log');
    execFileSync('mkfifo', [fifo]);
    // Should a reader be stuck on the pipe (the bug), a writer's open and close lets it go, so the process can end.
    t.after(() => {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // no reader waiting: nothing to release
      }
    });
    const g = await groupCrashes(ws, 'logs');
    assert.deepEqual(
      g.groups.map((x) => x.reports),
      [['logs/a.log']],
    );
    assert.deepEqual(g.skipped, [{ path: 'logs/pipe.log', reason: 'not a regular file (a named pipe)' }]);
    assert.deepEqual(g.ungrouped, []);
    const task = await crashFolderTask(ws, 'logs');
    assert.doesNotMatch(task.prompt, /pipe\.log/);
  },
);

test('a report that is a symlink out of the workspace is not read; one that stays inside is', { skip: process.platform === 'win32' }, async (t) => {
  const { root, ws, logs } = workspace(t);
  const secret = path.join(root, 'secret.log');
  fs.writeFileSync(secret, trace('SECRET-TOKEN-1234', 'leak'));
  fs.symlinkSync(secret, path.join(logs, 'linked.log'));
  fs.symlinkSync(path.join(root, 'nowhere.log'), path.join(logs, 'broken.log'));
  fs.mkdirSync(path.join(ws, 'other'));
  fs.writeFileSync(path.join(ws, 'other', 'real.log'), trace('inside'));
  fs.symlinkSync(path.join(ws, 'other', 'real.log'), path.join(logs, 'inner.log'));
  const g = await groupCrashes(ws, 'logs');
  assert.deepEqual(
    g.groups.map((x) => [x.signature, x.reports]),
    [['TypeError @ f (src/a.js)', ['logs/inner.log']]],
  );
  assert.deepEqual(g.skipped, [
    { path: 'logs/broken.log', reason: 'a broken symlink' },
    { path: 'logs/linked.log', reason: 'a symlink that leads out of the workspace' },
  ]);
  assert.doesNotMatch(JSON.stringify(g), /SECRET|leak/);
  const task = await crashFolderTask(ws, 'logs');
  assert.doesNotMatch(task.prompt, /SECRET|leak|linked\.log/);
});

/** Runs `fn` counting the bytes asked of FileHandle.read (how much of each file the grouping reads). */
async function countingReads<T>(fn: () => Promise<T>): Promise<{ result: T; asked: number[] }> {
  const h = await fsp.open(__filename, 'r');
  const proto = Object.getPrototypeOf(h) as { read: (...a: unknown[]) => Promise<unknown> };
  await h.close();
  const read = proto.read;
  const asked: number[] = [];
  proto.read = function (this: unknown, ...a: unknown[]) {
    if (Buffer.isBuffer(a[0])) asked.push(typeof a[2] === 'number' ? a[2] : a[0].length);
    return read.apply(this, a);
  };
  try {
    return { result: await fn(), asked };
  } finally {
    proto.read = read;
  }
}

test('a huge (sparse) report is read only up to MAX_REPORT_BYTES, and a small one only its size', { skip: process.platform === 'win32' }, async (t) => {
  const { ws, logs } = workspace(t);
  const small = trace('small');
  fs.writeFileSync(path.join(logs, 'small.log'), small);
  const huge = path.join(logs, 'huge.log');
  fs.writeFileSync(huge, `${'log line\n'.repeat(1000)}${trace('huge')}`);
  fs.truncateSync(huge, 16 * 1024 ** 3); // 16 GiB, all of it a hole after the first lines
  const { result: g, asked } = await countingReads(() => groupCrashes(ws, 'logs'));
  assert.deepEqual(
    g.groups.map((x) => x.reports),
    [['logs/huge.log', 'logs/small.log']],
  );
  const total = asked.reduce((a, b) => a + b, 0);
  assert.ok(total <= MAX_REPORT_BYTES + Buffer.byteLength(small), `asked for ${total} bytes in all (${asked.join(', ')})`);
  assert.ok(asked.every((n) => n <= MAX_REPORT_BYTES));
});

test('a JSON-lines report longer than the cap keeps its whole events: the ones read are grouped', async (t) => {
  const { ws, logs } = workspace(t);
  const line = (i: number): string =>
    JSON.stringify({
      level: 'error',
      pad: 'x'.repeat(400),
      err: { name: 'RangeError', message: `n ${i}`, stack: `RangeError: n ${i}\n    at g (/app/src/a.js:3:1)` },
    });
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size <= 3 * MAX_REPORT_BYTES; i++) {
    lines.push(line(i));
    size += Buffer.byteLength(lines[i]) + 1;
  }
  fs.writeFileSync(path.join(logs, 'events.jsonl'), `${lines.join('\n')}\n`);
  const g = await groupCrashes(ws, 'logs');
  assert.equal(g.groups.length, 1);
  assert.equal(g.groups[0].signature, 'RangeError @ g (src/a.js)');
  const n = g.groups[0].reports.length;
  assert.ok(n > 100 && n < lines.length, `${n} of ${lines.length} events`);
  assert.deepEqual(g.ungrouped, []);
});
