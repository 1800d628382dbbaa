/**
 * A user's own repository: the prompts ask for the commit that introduced the crash, named in the
 * issue body ("Introduced by: <sha> <subject>"), and point at str_replace and the history tools.
 * The bundled tasks' system prompt stays word for word (their recordings replay only it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashFolderTask } from '../../../src/triage/tasks/crash-folder';
import { OWN_REPO_SYSTEM, TRIAGE_SYSTEM } from '../../../src/triage/tasks/prompts';
import { tempDir } from '../../support/temp-dir';

test('an own-repository run asks for the commit that introduced the bug, in the issue body', async (tc) => {
  const ws = tempDir(tc, 'triage-own-');
  fs.mkdirSync(path.join(ws, 'reports', 'npe'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'reports', 'npe', '1.txt'), 'TypeError');
  const t = await crashFolderTask(ws, 'reports');
  assert.match(t.prompt, /find the commit that introduced the bug \(git_log with the crashing lines' range, git_blame, git_log_search/);
  assert.match(t.prompt, /"Introduced by: <short hash> <commit subject>"/);
  assert.match(t.prompt, /fix the bug with the smallest change \(str_replace/);
  assert.equal(t.system, OWN_REPO_SYSTEM);
  assert.match(OWN_REPO_SYSTEM, /Change existing files with str_replace/);
  assert.match(OWN_REPO_SYSTEM, /git_log of the crashing lines/);
  assert.doesNotMatch(OWN_REPO_SYSTEM, /code_patch/);
  assert.match(TRIAGE_SYSTEM, /Apply changes to existing files with code_patch/);
  assert.doesNotMatch(TRIAGE_SYSTEM, /git_log|str_replace/);
});
