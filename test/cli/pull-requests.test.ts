/** `triage run --pull-requests`: bad input is refused (exit 2) before anything is made; git's refusals have their own exit status (14). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { triage } from './support';
import { EXIT, exitCodeOf } from '../../src/cli/exitcodes';
import { USAGE } from '../../src/cli/usage';
import { BranchTakenError, GitError, NotAGitRepositoryError, PushRejectedError } from '../../src/git/errors';
import { tempDir } from '../support/temp-dir';

test('--pull-requests without a GitHub tracker, or without a workspace, is refused and makes nothing', (t) => {
  const root = tempDir(t, 'triage-pr-cli-');
  const state = path.join(root, 'state');
  const embedded = triage(['run', '--task', 'crash-folder', '--state', state, '--workspace', root, '--pull-requests']);
  assert.equal(embedded.status, EXIT.badInput, embedded.stderr);
  assert.match(
    embedded.stderr,
    /Pull requests \(--pull-requests, or the setting durableTriage\.pullRequests\.enabled\) are opened on GitHub: set the tracker to github:OWNER\/REPO.*\(--tracker, or the setting durableTriage\.tracker\)/,
  );
  const noWorkspace = triage(['run', '--task', 'crash-folder', '--state', state, '--tracker', 'github:o/r', '--pull-requests']);
  assert.equal(noWorkspace.status, EXIT.badInput, noWorkspace.stderr);
  const badRemote = triage([
    'run',
    '--task',
    'crash-folder',
    '--state',
    state,
    '--workspace',
    root,
    '--tracker',
    'github:o/r',
    '--pull-requests',
    '--remote=-x',
  ]);
  assert.equal(badRemote.status, EXIT.badInput, badRemote.stderr);
  assert.match(badRemote.stderr, /--remote "-x" is not the name of a git remote/);
  const baseAlone = triage(['run', '--task', 'crash-folder', '--state', state, '--workspace', root, '--base', 'main']);
  assert.equal(baseAlone.status, EXIT.badInput);
  assert.match(baseAlone.stderr, /--base, --remote and --draft go with --pull-requests/);
  const badDraft = triage(['run', '--task', 'crash-folder', '--state', state, '--workspace', root, '--pull-requests', '--draft', 'maybe']);
  assert.equal(badDraft.status, EXIT.badInput);
  assert.ok(!fs.existsSync(state), 'no state folder was made');
});

test("git's refusals exit 14, named in the usage", () => {
  for (const e of [
    new GitError('status', 1, 'x'),
    new NotAGitRepositoryError('/w', 'fatal: not a git repository'),
    new BranchTakenError('triage/a-b', "commit 123 is not this run's"),
    new PushRejectedError('origin', 'triage/a-b', ' ! [rejected] (non-fast-forward)'),
  ])
    assert.equal(exitCodeOf(e), 14, e.code);
  assert.match(USAGE, /14 git \(--pull-requests: not a repository, a branch taken, a push refused\)/);
});
