import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareWorktree } from '../../src/deps/prepare';
import { DEFAULT_DEPS } from '../../src/deps/options';
import { ToolMissingError } from '../../src/deps/errors';
import { tempDir } from '../support/temp-dir';
import { prepareSpec, write } from './support';

test('--deps off: nothing is done, and the record says so', async (t) => {
  const s = prepareSpec(t, { 'package.json': '{}', 'package-lock.json': '{}' }, { options: { ...DEFAULT_DEPS, mode: 'off' } });
  assert.deepEqual(await prepareWorktree(s), { version: 1, steps: [], env: {}, exclude: [] });
  assert.equal(fs.existsSync(path.join(s.worktreeTop, 'node_modules')), false);
  assert.deepEqual(JSON.parse(fs.readFileSync(s.record, 'utf8')).steps, []);
});

test('a worktree found again (made: false) takes its readiness record as it is: nothing is run again', async (t) => {
  const s = prepareSpec(t, { 'package.json': '{}', 'package-lock.json': '{}' }, { made: false });
  const saved = { version: 1, steps: [{ ecosystem: 'node', what: 'npm ci', ms: 1234 }], env: { A: '1' }, exclude: ['**/node_modules'] };
  fs.writeFileSync(s.record, JSON.stringify(saved));
  assert.deepEqual(await prepareWorktree(s), saved, 'no npm on this PATH, so running it would have thrown');
});

test('a torn or foreign record is not trusted: the worktree is made ready again', async (t) => {
  const s = prepareSpec(t, { 'tests/test_a.py': '' }, { made: false });
  fs.writeFileSync(s.record, '{"version":1,"ste');
  const r = await prepareWorktree(s);
  assert.equal(r.steps.length, 1);
  assert.equal(r.steps[0].ecosystem, 'python');
  assert.equal(r.env.PYTHONPATH, s.worktreeTop);
  assert.deepEqual(JSON.parse(fs.readFileSync(s.record, 'utf8')), r, 'the record written whole');
});

test('a pinned package manager with neither corepack nor it on the PATH: ToolMissingError naming corepack, before anything runs', async (t) => {
  const s = prepareSpec(t, { 'package.json': JSON.stringify({ packageManager: 'pnpm@9.15.9' }), 'pnpm-lock.yaml': '' });
  await assert.rejects(
    prepareWorktree(s),
    (e: unknown) => e instanceof ToolMissingError && /^corepack is needed .*packageManager: pnpm@9\.15\.9/.test(e.message),
  );
  assert.equal(fs.existsSync(s.record), false, 'no record: the next try makes it ready');
  assert.equal(fs.existsSync(path.join(s.worktreeTop, 'node_modules')), false);
});

test('reuse with the same lock file links the checkout’s node_modules without installing; the excludes keep it out of commits', async (t) => {
  const files = { 'package.json': '{}', 'package-lock.json': '{"lockfileVersion":3}' };
  const s = prepareSpec(t, files, { options: { ...DEFAULT_DEPS, mode: 'reuse' } });
  write(s.checkoutTop, { 'node_modules/is-number/index.js': '' });
  const r = await prepareWorktree(s);
  assert.match(r.steps[0].what, /your checkout's node_modules linked, read-only \(1 folder\)/);
  assert.ok(fs.lstatSync(path.join(s.worktreeTop, 'node_modules')).isSymbolicLink());
  assert.ok(r.exclude.includes('**/node_modules'));
});

test('progress: the install is announced before it runs (its command and its log), and the worktree said ready once it is; nothing said when the saved record is taken', async (t) => {
  // npm on this PATH is a script that prints and succeeds, so the install "runs" without a registry.
  const bin = tempDir(t, 'triage-prepare-bin-');
  fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "added 0 packages"\n', { mode: 0o755 });
  const said: string[] = [];
  const s = prepareSpec(t, { 'package.json': '{}', 'package-lock.json': '{}' }, { env: { PATH: `${bin}:/usr/bin:/bin` }, progress: (x) => said.push(x) });
  await prepareWorktree(s);
  assert.equal(said.length, 2, said.join('\n'));
  assert.match(said[0], /^npm ci --no-audit --no-fund --prefer-offline --ignore-scripts \(output in .*\.install\.log\)$/);
  assert.match(said[1], /^ready in \d+\.\d s$/);
  said.length = 0;
  await prepareWorktree({ ...s, made: false });
  assert.deepEqual(said, [], 'the record was taken: nothing to say');
});
