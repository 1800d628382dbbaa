/** The tracker spec (src/tracker/spec.ts): embedded, github:OWNER/REPO (its GitHub part in github/spec.ts), mcp:SERVER, or a tracker URL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTrackerSpec } from '../../src/tracker/spec';
import { parseGithubRepo } from '../../src/tracker/github/spec';
import { BadInputError } from '../../src/core/errors';

test('each kind of spec, trimmed; a .git suffix dropped from a GitHub repository', () => {
  assert.deepEqual(parseTrackerSpec('  '), { kind: 'embedded' });
  assert.deepEqual(parseTrackerSpec(' embedded '), { kind: 'embedded' });
  assert.deepEqual(parseTrackerSpec('github:octo-org/octo-repo.git'), { kind: 'github', owner: 'octo-org', repo: 'octo-repo' });
  assert.deepEqual(parseTrackerSpec('https://tracker.example:8443/'), { kind: 'http', url: 'https://tracker.example:8443/' });
  assert.deepEqual(parseGithubRepo('github:a/b'), { owner: 'a', repo: 'b' });
  assert.deepEqual(parseTrackerSpec(' mcp:jira_1 '), { kind: 'mcp', server: 'jira_1' });
});

test('each refusal says what a spec should be', () => {
  const refused = (text: string, message: RegExp): void =>
    assert.throws(
      () => parseTrackerSpec(text),
      (e: unknown) => e instanceof BadInputError && message.test(e.message),
      text,
    );
  refused('github:octo-org', /^The tracker "github:octo-org" is not github:OWNER\/REPO \(e\.g\. github:octo-org\/octo-repo\)\.$/);
  refused('github:-x/y', /is not github:OWNER\/REPO/);
  refused('words', /^The tracker "words" is neither "embedded", github:OWNER\/REPO, mcp:SERVER, nor a tracker URL \(http:\/\/HOST:PORT\)\.$/);
  refused('mcp:', /^The tracker "mcp:" is not mcp:SERVER, where SERVER is a server of the --mcp file/);
  refused('mcp:a/b', /is not mcp:SERVER/);
  refused('ftp://tracker.example', /^The tracker URL ftp:\/\/tracker\.example should be http:\/\/ or https:\/\/\.$/);
});
