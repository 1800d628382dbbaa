/**
 * Grouping raw crash reports by signature: the fixtures' Node, Python and Go reports, JSON
 * events, and the bundled samples' reports poured into one flat folder, which must come back
 * as the samples' own per-cause folders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { groupCrashes } from '../../src/crashes/group';
import { parseCrashes } from '../../src/crashes/parse';
import { tasks } from '../../src/triage/tasks/catalog';
import { BadInputError } from '../../src/core/errors';
import { FIXTURES } from '../runners/fixture';
import { tempDir } from '../support/temp-dir';

test('the fixtures: two groups each, by error type and the top frames in the workspace', async () => {
  const want: Record<string, string[][]> = {
    node: [
      ['parse-duration-type-error', 'crashes/2025-06-01-worker-3.log', 'crashes/2025-06-02-worker-1.log'],
      ['total-type-error', 'crashes/2025-06-03-events.json', 'crashes/2025-06-04-worker-2.log'],
    ],
    pytest: [
      ['parse-duration-key-error', 'crashes/2025-06-01-worker-3.log', 'crashes/2025-06-02-worker-1.log'],
      ['total-type-error', 'crashes/2025-06-04-worker-2.log', 'crashes/2025-06-05-worker-4.log'],
    ],
    go: [
      ['parse-duration-runtime-error', 'crashes/2025-06-01-worker-3.log', 'crashes/2025-06-02-worker-1.log'],
      ['total-runtime-error', 'crashes/2025-06-04-worker-2.log'],
    ],
  };
  for (const [kind, groups] of Object.entries(want)) {
    const g = await groupCrashes(path.join(FIXTURES, 'repos', kind), 'crashes');
    assert.deepEqual(
      g.groups.map((x) => [x.cause, ...x.reports]),
      groups,
      kind,
    );
    assert.ok(g.groups.every((x) => x.frames.length >= 1));
    assert.deepEqual(g.ungrouped, []);
  }
  const node = await groupCrashes(path.join(FIXTURES, 'repos', 'node'), 'crashes');
  assert.deepEqual(
    node.groups[0].frames.map((f) => f.fn),
    ['parseDuration', 'sumFile', 'main'],
  );
  assert.equal(
    node.groups[0].signature,
    'TypeError @ parseDuration (src/duration.js)',
    'installed paths map to the workspace; node: and node_modules frames are left out',
  );
});

test("the bundled samples' reports, poured into one folder, group back into their cause folders", async (t) => {
  for (const task of tasks()) {
    const ws = tempDir(t, 'triage-group-');
    fs.cpSync(task.sample, ws, { recursive: true });
    fs.rmSync(path.join(ws, 'crashes'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'raw'));
    const expected: string[][] = [];
    for (const g of task.groups) {
      const names = fs.readdirSync(path.join(task.sample, g.crashes)).sort();
      for (const n of names) fs.copyFileSync(path.join(task.sample, g.crashes, n), path.join(ws, 'raw', `${g.cause}--${n}`));
      expected.push(names.map((n) => `raw/${g.cause}--${n}`));
    }
    const got = await groupCrashes(ws, 'raw');
    assert.deepEqual(got.groups.map((x) => x.reports).sort(), expected.sort(), task.name);
    assert.equal(new Set(got.groups.map((x) => x.cause)).size, got.groups.length, 'causes are unique');
    assert.deepEqual(await groupCrashes(ws, 'raw'), got, 'the same folder groups the same way');
  }
});

test('JSON lines with several events, a report without a crash, and bad folders', async (t) => {
  const ws = tempDir(t, 'triage-group-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), '');
  fs.mkdirSync(path.join(ws, 'logs'));
  const ev = (msg: string): string =>
    JSON.stringify({ level: 'error', err: { name: 'RangeError', message: msg, stack: `RangeError: ${msg}\n    at f (/app/src/a.js:1:1)` } });
  fs.writeFileSync(path.join(ws, 'logs', 'events.jsonl'), `${ev('too big: 5')}\n${ev('too big: 7')}\n`);
  fs.writeFileSync(path.join(ws, 'logs', 'note.txt'), 'the service restarted twice last night\n');
  const g = await groupCrashes(ws, 'logs');
  assert.deepEqual(
    g.groups.map((x) => [x.cause, x.signature, x.reports]),
    [['f-range-error', 'RangeError @ f (src/a.js)', ['logs/events.jsonl#1', 'logs/events.jsonl#2']]],
  );
  assert.deepEqual(g.ungrouped, ['logs/note.txt']);
  await assert.rejects(groupCrashes(ws, '../x'), (e: unknown) => e instanceof BadInputError && /outside the workspace/.test(e.message));
  await assert.rejects(groupCrashes(ws, 'nope'), (e: unknown) => e instanceof BadInputError && /does not exist/.test(e.message));
});

test('a Python traceback is read innermost first; a Go panic names its function', () => {
  const py = parseCrashes(
    'Traceback (most recent call last):\n  File "/x/a.py", line 3, in outer\n    inner()\n  File "/x/b.py", line 9, in inner\n    1/0\nZeroDivisionError: division by zero\n',
  );
  assert.deepEqual(
    py[0].frames.map((f) => f.fn),
    ['inner', 'outer'],
  );
  assert.equal(py[0].type, 'ZeroDivisionError');
  const go = parseCrashes(
    'panic: boom\n\ngoroutine 1 [running]:\nexample.com/m/pkg.(*T).Do(...)\n\t/src/pkg/t.go:12 +0x1d\nmain.main()\n\t/src/main.go:5 +0x2\n',
  );
  assert.deepEqual(
    go[0].frames.map((f) => [f.fn, f.path]),
    [
      ['(*T).Do', '/src/pkg/t.go'],
      ['main', '/src/main.go'],
    ],
  );
  assert.equal(go[0].type, 'panic');
});
