/**
 * Cause worktrees with real git: a setup's node_modules never committed, a run's worktrees
 * removed with it (branch kept, the checkout's node_modules behind a reuse link untouched), and
 * `--prune` removing only those of runs that are done or gone.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveBase } from '../../src/git/base';
import { CauseBranches } from '../../src/git/cause-branches';
import { linkNodeModules } from '../../src/deps/reuse';
import { NODE_EXCLUDES } from '../../src/deps/prepare';
import { listWorktrees, pruneWorktrees, removeRunWorktrees } from '../../src/triage/worktrees';
import type { RunListing, RunStore } from '../../src/store/run-store';
import type { RunState } from '../../src/store/state';
import { makeRepos, sh } from '../git/support';
import { describeEvent } from '../../src/cli/progress';

const RUN_A = 'crash-folder-20261205T000000Z-aaaa1111';
const RUN_B = 'crash-folder-20261205T000000Z-bbbb2222';

/** What the listing needs of a store: where its worktrees are, and its runs' phases. */
function storeAt(state: string, phases: Record<string, string>): RunStore {
  const runs: RunListing[] = Object.entries(phases).map(([runId, phase]) => ({ runId, file: '', locked: false, state: { phase } as RunState }));
  return { workspacesDir: path.join(state, 'workspaces'), listRuns: async () => runs } as unknown as RunStore;
}

async function branchesOf(checkout: string, state: string, runId: string, linkFrom?: string): Promise<CauseBranches> {
  return new CauseBranches({
    ...(await resolveBase(checkout, undefined)),
    runId,
    worktreesDir: path.join(state, 'worktrees'),
    setup: async ({ dir }) => {
      if (linkFrom) linkNodeModules(linkFrom, dir);
      else fs.mkdirSync(path.join(dir, 'node_modules', 'is-number'), { recursive: true });
      if (!linkFrom) fs.writeFileSync(path.join(dir, 'node_modules', 'is-number', 'index.js'), '');
      return { env: { FROM_SETUP: '1' }, exclude: NODE_EXCLUDES };
    },
  });
}

test('what the setup made (node_modules, or a link to the checkout’s) is never in the cause’s commit; its env reaches the tests', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  for (const linkFrom of [undefined, r.checkout]) {
    fs.mkdirSync(path.join(r.checkout, 'node_modules', 'x'), { recursive: true });
    const runId = linkFrom ? RUN_B : RUN_A;
    const b = await branchesOf(r.checkout, r.state, runId, linkFrom);
    const ws = await b.workspaceOf('c');
    assert.deepEqual(await b.testEnvOf('c'), { FROM_SETUP: '1' });
    fs.writeFileSync(path.join(ws, 'src', 'duration.js'), 'exports.parse = (s) => (s.unit ?? "").length;\n');
    const sha = await b.commitAll('c', 'Fix', `k-${runId}`);
    assert.deepEqual(sh(r.checkout, 'show', '--name-only', '--format=', sha!).split('\n'), ['src/duration.js'], linkFrom ? 'a reuse link' : 'an install');
  }
});

test('a run’s worktrees are removed with it, its branches kept; a reuse link goes, the checkout’s node_modules stays', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(r.checkout, 'node_modules', 'is-number'), { recursive: true });
  fs.writeFileSync(path.join(r.checkout, 'node_modules', 'is-number', 'index.js'), 'mine\n');
  const b = await branchesOf(r.checkout, r.state, RUN_A, r.checkout);
  const one = await b.workspaceOf('one');
  await b.workspaceOf('two');
  fs.writeFileSync(`${one}.ready.json`, JSON.stringify({ version: 1, steps: [{ ecosystem: 'node', what: 'linked', ms: 1500 }], env: {}, exclude: [] }));
  const store = storeAt(r.state, { [RUN_A]: 'tools' });
  const [listed] = await listWorktrees(store);
  assert.deepEqual(
    { ...listed, ready: listed.ready[one] },
    { runId: RUN_A, phase: 'tools', worktrees: [one, b.worktree('two')], ready: ['node: linked (1.5 s)'] },
  );

  assert.deepEqual(await removeRunWorktrees(store, RUN_A), [one, b.worktree('two')]);
  assert.equal(fs.existsSync(path.join(r.state, 'worktrees', RUN_A)), false);
  assert.equal(fs.existsSync(`${one}.ready.json`), false);
  assert.equal(fs.readFileSync(path.join(r.checkout, 'node_modules', 'is-number', 'index.js'), 'utf8'), 'mine\n', 'the link removed, not what it points at');
  assert.doesNotMatch(sh(r.checkout, 'worktree', 'list'), /worktrees/, 'git forgot them');
  assert.match(sh(r.checkout, 'branch', '--list', 'triage/*'), /triage\/one-aaaa1111[\s\S]*triage\/two-aaaa1111/, 'the branches are kept');
  assert.deepEqual(await removeRunWorktrees(store, RUN_A), [], 'again: nothing left, no error');
});

test('--prune removes the worktrees of runs done or deleted, and keeps those of runs still going', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const done = await (await branchesOf(r.checkout, r.state, RUN_A)).workspaceOf('c');
  const going = await (await branchesOf(r.checkout, r.state, RUN_B)).workspaceOf('c');
  const gone = await (await branchesOf(r.checkout, r.state, 'crash-folder-20261205T000000Z-cccc3333')).workspaceOf('c');
  const store = storeAt(r.state, { [RUN_A]: 'done', [RUN_B]: 'paused' });
  const pruned = await pruneWorktrees(store);
  assert.deepEqual(
    pruned.map((p) => [p.runId, p.phase]),
    [
      [RUN_A, 'done'],
      ['crash-folder-20261205T000000Z-cccc3333', 'deleted'],
    ],
  );
  assert.equal(fs.existsSync(done), false);
  assert.equal(fs.existsSync(gone), false);
  assert.ok(fs.existsSync(path.join(going, 'src', 'duration.js')), 'a paused run keeps its worktree');
  assert.deepEqual(
    (await listWorktrees(store)).map((w) => w.runId),
    [RUN_B],
  );
});

test('a worktree whose repository was deleted is removed as a plain folder', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const ws = await (await branchesOf(r.checkout, r.state, RUN_A)).workspaceOf('c');
  fs.rmSync(r.checkout, { recursive: true, force: true });
  assert.deepEqual(await removeRunWorktrees(storeAt(r.state, {}), RUN_A), [ws]);
  assert.equal(fs.existsSync(ws), false);
});

test('what the setup says while it works reaches the call that made the worktree (a tool’s progress line), once per worktree', async (t) => {
  const r = makeRepos();
  t.after(() => fs.rmSync(r.root, { recursive: true, force: true }));
  const b = new CauseBranches({
    ...(await resolveBase(r.checkout, undefined)),
    runId: RUN_A,
    worktreesDir: path.join(r.state, 'worktrees'),
    setup: async ({ cause, progress }) => {
      progress?.(`installing for ${cause}`);
      return { env: {}, exclude: [] };
    },
  });
  const said: string[] = [];
  await b.workspaceOf('c', undefined, (x) => said.push(x));
  await b.workspaceOf('c', undefined, (x) => said.push(x));
  assert.deepEqual(said, ['installing for c'], 'the second call finds the worktree ready: no setup, nothing said');
  assert.equal(
    describeEvent({ type: 'tool-progress', call: { id: 'c1', name: 'write_file', args: '{}' }, text: "c's worktree: npm ci" }),
    "  write_file: c's worktree: npm ci",
  );
});
