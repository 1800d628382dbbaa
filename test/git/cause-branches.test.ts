/**
 * One branch and worktree per cause, with real git: the user's checkout (dirty on purpose) is
 * never touched, the commit carries its key and is found by it, a push is never forced (a
 * repeat changes nothing, a remote branch with other commits is PushRejectedError), and a
 * branch of the same name with other commits is BranchTakenError with nothing changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveBase } from '../../src/git/base';
import { CauseBranches } from '../../src/git/cause-branches';
import { BranchTakenError, NotAGitRepositoryError, PushRejectedError } from '../../src/git/errors';
import { BadInputError } from '../../src/core/errors';
import { makeRepos, sh } from './support';

const RUN = 'crash-folder-20261203T000000Z-abcd1234';

async function branchesOf(checkout: string, state: string, runId = RUN): Promise<CauseBranches> {
  return new CauseBranches({ ...(await resolveBase(checkout, undefined)), runId, worktreesDir: path.join(state, 'worktrees') });
}

test('a cause gets its own branch and worktree; the dirty user checkout is untouched; the commit is found by its key', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(r.checkout, 'src', 'duration.js'), 'my own unsaved work\n');
  fs.writeFileSync(path.join(r.checkout, 'notes.txt'), 'untracked\n');
  const statusBefore = sh(r.checkout, 'status', '--porcelain');
  const b = await branchesOf(r.checkout, r.state);
  assert.equal(b.branch('unit-type-error'), 'triage/unit-type-error-abcd1234');
  const ws = await b.workspaceOf('unit-type-error');
  assert.equal(ws, path.join(r.state, 'worktrees', RUN, 'unit-type-error-abcd1234'));
  assert.equal(
    fs.readFileSync(path.join(ws, 'src', 'duration.js'), 'utf8'),
    'exports.parse = (s) => s.unit.length;\n',
    'the worktree starts at the base commit',
  );
  assert.equal(await b.workspaceOf('unit-type-error'), ws, 'made once, found again');

  fs.writeFileSync(path.join(ws, 'src', 'duration.js'), 'exports.parse = (s) => (s.unit ?? "").length;\n');
  fs.writeFileSync(path.join(ws, 'src', 'duration.test.js'), 'test\n');
  assert.equal(await b.findCommit('unit-type-error', 'k1'), undefined, 'nothing committed: certainly not done');
  const sha = await b.commitAll('unit-type-error', 'Fix parse on a missing unit', 'k1');
  assert.match(sha ?? '', /^[0-9a-f]{40}$/);
  assert.equal(await b.findCommit('unit-type-error', 'k1'), sha);
  assert.equal(await b.findCommit('unit-type-error', 'k2'), undefined, 'another key: not this commit');
  const msg = sh(r.checkout, 'log', '-1', '--format=%B', b.branch('unit-type-error'));
  assert.match(msg, /^Fix parse on a missing unit\n\nTriage-Key: k1\nTriage-Run: crash-folder-20261203T000000Z-abcd1234\nTriage-Cause: unit-type-error$/);
  assert.equal(await b.commitAll('unit-type-error', 'again', 'k3'), undefined, 'nothing left to commit: no empty commit');

  assert.equal(sh(r.checkout, 'status', '--porcelain'), statusBefore, "the user's checkout is as it was");
  assert.equal(fs.readFileSync(path.join(r.checkout, 'src', 'duration.js'), 'utf8'), 'my own unsaved work\n');
  assert.equal(sh(r.checkout, 'symbolic-ref', '--short', 'HEAD'), 'main');

  await b.push('unit-type-error', 'origin');
  assert.equal(sh(r.remote, 'rev-parse', `refs/heads/${b.branch('unit-type-error')}`), sha);
  await b.push('unit-type-error', 'origin'); // the same commit again: nothing to do, no error
  assert.match(b.diffText('unit-type-error'), /src\/duration\.test\.js[\s\S]*\+exports\.parse = \(s\) => \(s\.unit \?\? ""\)\.length;/);
});

test("a branch of the same name with commits that are not the run's is refused, and nothing changes", async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const b = await branchesOf(r.checkout, r.state);
  const branch = b.branch('unit-type-error');
  sh(r.checkout, 'checkout', '--quiet', '-b', branch);
  fs.writeFileSync(path.join(r.checkout, 'mine.txt'), "a person's commit\n");
  sh(r.checkout, 'add', '-A');
  sh(r.checkout, 'commit', '--quiet', '-m', 'mine');
  sh(r.checkout, 'checkout', '--quiet', 'main');
  const tip = sh(r.checkout, 'rev-parse', branch);
  await assert.rejects(
    b.workspaceOf('unit-type-error'),
    (e: unknown) => e instanceof BranchTakenError && e.message.includes(branch) && /not this run's/.test(e.message),
  );
  assert.equal(sh(r.checkout, 'rev-parse', branch), tip, 'the branch is as it was');
  assert.ok(!fs.existsSync(b.worktree('unit-type-error')), 'no worktree made');
});

test('a remote branch with other commits refuses the push: PushRejectedError, nothing pushed', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const b = await branchesOf(r.checkout, r.state);
  const branch = b.branch('unit-type-error');
  const other = path.join(r.root, 'other');
  sh(r.root, 'clone', '--quiet', r.remote, other);
  sh(other, 'checkout', '--quiet', '-b', branch);
  fs.writeFileSync(path.join(other, 'theirs.txt'), 'x\n');
  sh(other, 'add', '-A');
  sh(other, 'commit', '--quiet', '-m', 'theirs');
  sh(other, 'push', '--quiet', 'origin', branch);
  const theirs = sh(r.remote, 'rev-parse', `refs/heads/${branch}`);
  const ws = await b.workspaceOf('unit-type-error');
  fs.writeFileSync(path.join(ws, 'fix.txt'), 'fix\n');
  await b.commitAll('unit-type-error', 'fix', 'k1');
  await assert.rejects(
    b.push('unit-type-error', 'origin'),
    (e: unknown) => e instanceof PushRejectedError && e.code === 'git-push-rejected' && e.message.includes(branch),
  );
  assert.equal(sh(r.remote, 'rev-parse', `refs/heads/${branch}`), theirs, "the remote's branch is as it was");
});

test('the base: the branch checked out by default, a named one, none in a detached HEAD, and a folder outside git', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const b = await resolveBase(path.join(r.checkout, 'src'), undefined);
  assert.deepEqual([b.base, b.prefix, b.repoRoot], ['main', 'src/', fs.realpathSync(r.checkout)]);
  assert.equal(b.baseSha, sh(r.checkout, 'rev-parse', 'main'));
  await assert.rejects(resolveBase(r.checkout, 'nope'), (e: unknown) => e instanceof BadInputError && /no local branch "nope"/.test(e.message));
  sh(r.checkout, 'checkout', '--quiet', '--detach');
  await assert.rejects(resolveBase(r.checkout, undefined), (e: unknown) => e instanceof BadInputError && /--base BRANCH/.test(e.message));
  assert.equal((await resolveBase(r.checkout, 'main')).base, 'main');
  const plain = path.join(r.root, 'plain');
  fs.mkdirSync(plain);
  await assert.rejects(resolveBase(plain, undefined), (e: unknown) => e instanceof NotAGitRepositoryError);
});
