import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSettings } from '../../src/extension/logic/settings';
import { errorView } from '../../src/extension/logic/error-view';
import { GitHubUnavailableError } from '../../src/tracker/github/errors';

test('durableTriage.tracker and durableTriage.testCommand', () => {
  const ok = readSettings((k) => ({ tracker: ' github:octo-org/durations ', testCommand: 'make test' })[k]);
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.settings.tracker, 'github:octo-org/durations');
  assert.equal(ok.settings.testCommand, 'make test');
  const bad = readSettings((k) => ({ tracker: 'github:nope' })[k]);
  assert.equal(bad.settings.tracker, undefined);
  assert.match(bad.problems[0], /durableTriage.tracker should be "embedded", github:OWNER\/REPO or a tracker URL/);
});

test('a GitHub stop is shown with its message and a way to resume', () => {
  const v = errorView(new GitHubUnavailableError('octo-org/durations', '502 Server Error', 502), 'run-1');
  assert.equal(v.severity, 'error');
  assert.match(v.message, /GitHub is not answering for octo-org\/durations/);
  assert.deepEqual(v.actions, ['Resume', 'Open Settings', 'Show Log']);
});
