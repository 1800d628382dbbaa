import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WrongWorkspaceError, assertSampleCopy } from '../../../src/triage/tasks/sample-copy';
import { tasks } from '../../../src/triage/tasks/catalog';
import { tempDir } from '../../support/temp-dir';

const task = tasks()[0];

test("a repository with its own crashes/ folder is told its reports are not the sample's, not that it lacks the folder", async (tc) => {
  const ws = tempDir(tc, 'triage-wrong-');
  fs.mkdirSync(path.join(ws, 'crashes'));
  fs.writeFileSync(path.join(ws, 'crashes', 'mine.log'), 'Error: mine');
  await assert.rejects(assertSampleCopy(task, ws), (e: unknown) => {
    assert.ok(e instanceof WrongWorkspaceError);
    assert.doesNotMatch(e.message, /lacks/);
    assert.match(e.message, /its crashes\/ folder holds other crash reports than the sample's \(crashes\/\S+ is missing\)/);
    assert.match(e.message, /Crash reports folder…/);
    return true;
  });
});

test('a folder without crashes/ is told so', async (tc) => {
  const ws = tempDir(tc, 'triage-wrong-');
  await assert.rejects(assertSampleCopy(task, ws), /it has no crashes\/ folder with the task's crash reports/);
});
