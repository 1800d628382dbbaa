import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { originRemoteUrl, remoteUrl } from '../../src/tracker/github/origin';
import { githubSpecOfRemote } from '../../src/tracker/github/spec';
import { tempDir } from '../support/temp-dir';

test("the origin remote's URL, from a repository and from a worktree's .git file", (t) => {
  const dir = tempDir(t, 'triage-origin-');
  const config =
    '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@github.com:other/x.git\n[remote "origin"]\n\turl = git@github.com:octo-org/durations.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n';
  fs.mkdirSync(path.join(dir, 'repo', '.git', 'worktrees', 'wt'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'repo', '.git', 'config'), config);
  fs.writeFileSync(path.join(dir, 'repo', '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
  fs.mkdirSync(path.join(dir, 'wt'));
  fs.writeFileSync(path.join(dir, 'wt', '.git'), `gitdir: ${path.join(dir, 'repo', '.git', 'worktrees', 'wt')}\n`);
  assert.equal(originRemoteUrl(path.join(dir, 'repo')), 'git@github.com:octo-org/durations.git');
  assert.equal(originRemoteUrl(path.join(dir, 'wt')), 'git@github.com:octo-org/durations.git');
  assert.equal(githubSpecOfRemote(originRemoteUrl(path.join(dir, 'wt'))!), 'github:octo-org/durations');
  assert.equal(originRemoteUrl(dir), undefined, 'not a repository');
  assert.equal(remoteUrl('[remote "origin"]\n', 'origin'), undefined);
});
