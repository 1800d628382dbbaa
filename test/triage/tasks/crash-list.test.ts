/**
 * The crash-folder prompt's list of groups is capped (groups, reports per group, signature
 * length, total bytes) and says what it cut; a folder of thousands of reports makes a small prompt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashGroupList, PROMPT_CAPS, type ListedGroup } from '../../../src/triage/tasks/crash-list';
import { crashFolderTask } from '../../../src/triage/tasks/crash-folder';
import { tempDir } from '../../support/temp-dir';

test('a few small groups are listed in full, with nothing said about cuts', () => {
  const list = crashGroupList([
    { cause: 'a-type-error', signature: 'TypeError @ a (src/a.js)', reports: ['r/1.log', 'r/2.log'] },
    { cause: 'b-range-error', signature: 'RangeError @ b (src/b.js)', reports: ['r/3.log'] },
  ]);
  assert.equal(
    list,
    '- cause "a-type-error": TypeError @ a (src/a.js)\n  reports: r/1.log, r/2.log\n- cause "b-range-error": RangeError @ b (src/b.js)\n  reports: r/3.log',
  );
});

test('100,000 reports in 60 groups: the list stays within its byte cap and says what was not shown', () => {
  const groups: ListedGroup[] = [];
  for (let i = 0; i < 60; i++) {
    const n = i === 7 ? 100_000 - 59 * 10 : 10; // one huge group, 59 of ten
    groups.push({ cause: `c${i}`, signature: `TypeError @ f${i} (src/a.js)`, reports: Array.from({ length: n }, (_, k) => `crashes/g${i}/report-${k}.log`) });
  }
  const list = crashGroupList(groups);
  assert.ok(Buffer.byteLength(list) <= PROMPT_CAPS.totalBytes, `${Buffer.byteLength(list)} bytes`);
  assert.match(
    list,
    /^- cause "c7": .*\n {2}reports: (crashes\/g7\/report-\d+\.log, ){9}crashes\/g7\/report-9\.log \(and 99,400 more\)$/m,
    'the biggest group is listed, cut to 10 reports',
  );
  const listed = list.match(/^- cause /gm)?.length ?? 0;
  assert.equal(listed, PROMPT_CAPS.groups);
  const last = list.split('\n').pop()!;
  const hiddenGroups = 60 - listed;
  assert.equal(
    last,
    `… ${(99_400 + hiddenGroups * 10).toLocaleString('en-US')} more reports in ${hiddenGroups + 1} groups not shown, ${hiddenGroups} of those groups not listed at all (100,000 reports in 60 groups in all; this list is cut to keep the prompt small: triage the groups listed).`,
  );
});

test('a signature of any length is cut, and long report paths stop at the byte cap', () => {
  const list = crashGroupList([
    { cause: 'x', signature: `T${'y'.repeat(100_000)}`, reports: Array.from({ length: 10 }, (_, k) => `${'d/'.repeat(1000)}${k}.log`) },
  ]);
  assert.ok(Buffer.byteLength(list) <= PROMPT_CAPS.totalBytes);
  assert.match(list, new RegExp(`^- cause "x": Ty{${PROMPT_CAPS.signatureChars - 1}}…\\n`));
  assert.match(list, /\(and \d+ more\)\n… \d+ more reports? in 1 group not shown \(10 reports in 1 groups in all;/);
});

test('a folder of thousands of raw reports makes a bounded prompt that says what was cut', async (t) => {
  const ws = tempDir(t, 'triage-many-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), '');
  fs.mkdirSync(path.join(ws, 'reports'));
  const N = 3000;
  for (let i = 0; i < N; i++) {
    const fn = `handler${i % 50}`;
    fs.writeFileSync(
      path.join(ws, 'reports', `crash-${String(i).padStart(5, '0')}.log`),
      `TypeError: bad input ${i}\n    at ${fn} (/srv/app/src/a.js:${i}:1)\n`,
    );
  }
  const task = await crashFolderTask(ws, 'reports');
  assert.equal(task.crashGroups?.length, 50, 'every group is saved with the run');
  assert.equal(
    task.crashGroups?.reduce((n, g) => n + g.reports.length, 0),
    N,
  );
  assert.ok(Buffer.byteLength(task.prompt) < PROMPT_CAPS.totalBytes + 4000, `prompt of ${Buffer.byteLength(task.prompt)} bytes`);
  assert.match(task.prompt, /… 2,600 more reports in 50 groups not shown, 10 of those groups not listed at all \(3,000 reports in 50 groups in all;/);
});
