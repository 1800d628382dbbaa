/**
 * `triage group` on a folder holding a named pipe and a symlink out of the workspace: it ends
 * (exit 0), groups the real reports, and lists the entries it did not read with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { triage, lastJson } from './support';
import { tempDir } from '../support/temp-dir';

test('triage group skips a named pipe and a symlink out of the workspace, and says so', { skip: process.platform === 'win32' }, (t) => {
  const root = tempDir(t, 'triage-group-cli-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), '');
  fs.mkdirSync(path.join(ws, 'logs'));
  fs.writeFileSync(path.join(ws, 'logs', 'a.log'), 'TypeError: x is undefined\n    at f (/app/src/a.js:1:1)\n');
  execFileSync('mkfifo', [path.join(ws, 'logs', 'pipe.log')]);
  fs.writeFileSync(path.join(root, 'secret.log'), 'TypeError: SECRET\n    at leak (/app/src/a.js:1:1)\n');
  fs.symlinkSync(path.join(root, 'secret.log'), path.join(ws, 'logs', 'linked.log'));

  const text = triage(['group', '--crashes', 'logs', '--workspace', ws]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /1 crash group\(s\) from 1 crash\(es\) in logs\//);
  assert.match(
    text.stdout,
    /not read: logs\/linked\.log \(a symlink that leads out of the workspace\), logs\/pipe\.log \(not a regular file \(a named pipe\)\)/,
  );
  assert.doesNotMatch(text.stdout, /SECRET|leak/);

  const json = triage(['group', '--crashes', 'logs', '--workspace', ws, '--json']);
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual(lastJson<{ skipped: unknown[] }>(json.stdout).skipped, [
    { path: 'logs/linked.log', reason: 'a symlink that leads out of the workspace' },
    { path: 'logs/pipe.log', reason: 'not a regular file (a named pipe)' },
  ]);
});
