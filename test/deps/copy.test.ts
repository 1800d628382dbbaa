import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareWorktree, type PrepareSpec } from '../../src/deps/prepare';
import { copyNodeModules } from '../../src/deps/copy';
import { DEFAULT_DEPS } from '../../src/deps/options';
import { tempDir } from '../support/temp-dir';
import { prepareSpec, write } from './support';

/** Every file under dir (relative path -> text), links shown as their target. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) out[r] = `-> ${fs.readlinkSync(path.join(dir, r))}`;
      else if (e.isDirectory()) walk(r);
      else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

const LOCKED = { 'package.json': '{"workspaces":["packages/*"]}', 'package-lock.json': '{"lockfileVersion":3}', 'packages/a/package.json': '{}' };
const INSTALLED = {
  'node_modules/is-number/index.js': 'module.exports = 1;',
  'node_modules/@scope/pkg/index.js': 'module.exports = 2;',
  'node_modules/.cache/babel/1.json': '{}',
  'node_modules/.vite/deps/_metadata.json': '{}',
  'packages/a/node_modules/ms/index.js': 'module.exports = 3;',
};

/** A checkout installed from the same lock file as its worktree (a link among its packages), and --deps copy. */
function spec(t: TestContext, worktreeRoot?: string): PrepareSpec {
  const s = prepareSpec(t, LOCKED, { options: { ...DEFAULT_DEPS, mode: 'copy' } }, worktreeRoot);
  write(s.checkoutTop, INSTALLED);
  fs.symlinkSync('../is-number', path.join(s.checkoutTop, 'node_modules/@scope/alias'));
  return s;
}

test('--deps copy with the same lock file: each node_modules folder copied as hard links, the caches left out, nothing installed', async (t) => {
  const s = spec(t);
  const before = tree(s.checkoutTop);
  const r = await prepareWorktree(s);
  assert.match(r.steps[0].what, /^your checkout's node_modules copied \(2 folders, hard links: the files shared, the folders its own\)$/);
  assert.ok(r.exclude.includes('**/node_modules'), 'kept out of commits');
  const wt = (rel: string): string => path.join(s.worktreeTop, rel);
  const co = (rel: string): string => path.join(s.checkoutTop, rel);
  assert.ok(fs.lstatSync(wt('node_modules')).isDirectory() && !fs.lstatSync(wt('node_modules')).isSymbolicLink(), 'a folder of its own, not a link');
  assert.equal(fs.statSync(wt('node_modules/is-number/index.js')).ino, fs.statSync(co('node_modules/is-number/index.js')).ino, 'the package file is shared');
  assert.equal(fs.readFileSync(wt('packages/a/node_modules/ms/index.js'), 'utf8'), 'module.exports = 3;', "a workspace package's node_modules too");
  assert.equal(fs.readlinkSync(wt('node_modules/@scope/alias')), '../is-number', 'links kept as they are');
  assert.equal(fs.existsSync(wt('node_modules/.cache')), false, 'caches are not shared');
  assert.equal(fs.existsSync(wt('node_modules/.vite')), false);
  // What the tests write into the worktree's node_modules stays there.
  write(s.worktreeTop, { 'node_modules/.vite/deps/_metadata.json': '{"new":1}', 'node_modules/is-number/extra.js': '' });
  fs.rmSync(wt('node_modules/@scope'), { recursive: true });
  assert.deepEqual(tree(s.checkoutTop), before, 'the checkout is as it was');
});

test('--deps copy after a killed life: the half-made copy and an earlier folder are replaced whole', async (t) => {
  const s = spec(t);
  write(s.worktreeTop, { 'node_modules.triage-copy-partial/is-number/half.js': '', 'node_modules/stale/index.js': '' });
  await prepareWorktree(s);
  assert.equal(fs.existsSync(path.join(s.worktreeTop, 'node_modules.triage-copy-partial')), false);
  assert.equal(fs.existsSync(path.join(s.worktreeTop, 'node_modules/stale')), false);
  assert.equal(fs.existsSync(path.join(s.worktreeTop, 'node_modules/is-number/index.js')), true);
});

test('--deps copy with a lock file the base commit does not have: installed instead, and the step says why', async (t) => {
  const s = spec(t);
  const bin = tempDir(t, 'triage-copy-bin-');
  fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "added 0 packages"\n', { mode: 0o755 });
  fs.writeFileSync(path.join(s.checkoutTop, 'package-lock.json'), '{"lockfileVersion":3,"changed":true}');
  const r = await prepareWorktree({ ...s, env: { PATH: `${bin}:/usr/bin:/bin` } });
  assert.match(r.steps[0].what, /^npm ci .*\(not copied: your checkout's package-lock\.json differs from the base commit's\)$/);
});

test('copyNodeModules onto another file system: the files copied, not linked', async (t) => {
  const other = '/dev/shm';
  if (!fs.existsSync(other) || fs.statSync(other).dev === fs.statSync(tempDir(t)).dev) {
    t.skip(`${other} is not another file system here`);
    return;
  }
  const elsewhere = fs.mkdtempSync(path.join(other, 'triage-copy-'));
  t.after(() => fs.rmSync(elsewhere, { recursive: true, force: true }));
  const s = spec(t, elsewhere);
  const r = await copyNodeModules(s.checkoutTop, s.worktreeTop);
  assert.deepEqual(r, { copied: ['node_modules', 'packages/a/node_modules'], linked: false });
  assert.equal(fs.readFileSync(path.join(s.worktreeTop, 'node_modules/is-number/index.js'), 'utf8'), 'module.exports = 1;');
});
