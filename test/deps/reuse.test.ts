import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { linkNodeModules, nodeModulesFolders, ownPackageLink, reuseRefusal } from '../../src/deps/reuse';
import { tempDir } from '../support/temp-dir';
import { write } from './support';

function pair(t: TestContext): { checkout: string; worktree: string } {
  const root = tempDir(t, 'triage-reuse-');
  const checkout = path.join(root, 'checkout');
  const worktree = path.join(root, 'worktree');
  write(checkout, {
    'package-lock.json': '{"lock":1}',
    'node_modules/is-number/index.js': 'module.exports = 1;\n',
    'packages/a/package.json': '{}',
    'packages/a/node_modules/left-pad/index.js': '',
    'packages/gone/node_modules/x/index.js': '',
  });
  write(worktree, { 'package-lock.json': '{"lock":1}', 'packages/a/package.json': '{}' });
  return { checkout, worktree };
}

test('reuse is refused, with the reason, unless the lock files are byte for byte the same and the checkout has node_modules', (t) => {
  const { checkout, worktree } = pair(t);
  assert.equal(reuseRefusal(checkout, worktree, 'package-lock.json'), undefined);
  fs.writeFileSync(path.join(worktree, 'package-lock.json'), '{"lock":2}');
  assert.equal(reuseRefusal(checkout, worktree, 'package-lock.json'), "your checkout's package-lock.json differs from the base commit's");
  assert.equal(reuseRefusal(checkout, worktree, 'yarn.lock'), 'your checkout has no yarn.lock');
  fs.writeFileSync(path.join(worktree, 'package-lock.json'), '{"lock":1}');
  fs.rmSync(path.join(checkout, 'node_modules'), { recursive: true });
  assert.equal(reuseRefusal(checkout, worktree, 'package-lock.json'), 'your checkout has no node_modules installed');
});

test('every node_modules of the tree is linked where the worktree has its package; linking again is a no-op; the checkout is not written', (t) => {
  const { checkout, worktree } = pair(t);
  assert.deepEqual(nodeModulesFolders(checkout), ['node_modules', 'packages/a/node_modules', 'packages/gone/node_modules']);
  const before = fs.readdirSync(checkout, { recursive: true }).sort();
  assert.deepEqual(linkNodeModules(checkout, worktree), ['node_modules', 'packages/a/node_modules']);
  assert.equal(fs.readlinkSync(path.join(worktree, 'node_modules')), path.join(checkout, 'node_modules'));
  assert.equal(fs.readFileSync(path.join(worktree, 'node_modules/is-number/index.js'), 'utf8'), 'module.exports = 1;\n');
  assert.equal(fs.existsSync(path.join(worktree, 'packages/gone')), false, 'a package the base commit does not have gets nothing');
  assert.deepEqual(linkNodeModules(checkout, worktree), ['node_modules', 'packages/a/node_modules']);
  assert.deepEqual(fs.readdirSync(checkout, { recursive: true }).sort(), before);
});

test('a node_modules the worktree already had (an earlier install) is replaced by the link', (t) => {
  const { checkout, worktree } = pair(t);
  write(worktree, { 'node_modules/stale/index.js': '' });
  linkNodeModules(checkout, worktree);
  assert.ok(fs.lstatSync(path.join(worktree, 'node_modules')).isSymbolicLink());
  assert.ok(fs.existsSync(path.join(checkout, 'node_modules/is-number/index.js')));
});

test('reuse is refused when the checkout’s node_modules links the repository’s own code (a file: dependency, a workspace package); store links are fine', (t) => {
  const { checkout, worktree } = pair(t);
  write(checkout, { 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js': '', 'libs/own/index.js': 'module.exports = 1;\n' });
  fs.symlinkSync(path.join(checkout, 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad'), path.join(checkout, 'node_modules/left-pad'), 'dir');
  const outside = tempDir(t, 'triage-reuse-global-');
  fs.symlinkSync(outside, path.join(checkout, 'node_modules/globally-linked'), 'dir');
  assert.equal(
    reuseRefusal(checkout, worktree, 'package-lock.json', checkout),
    undefined,
    'pnpm store links and links out of the repository are not its own code',
  );
  fs.mkdirSync(path.join(checkout, 'node_modules/@acme'));
  fs.symlinkSync('../../libs/own', path.join(checkout, 'node_modules/@acme/own'), 'dir');
  assert.deepEqual(ownPackageLink(checkout, checkout), { at: 'node_modules/@acme/own', to: 'libs/own' });
  assert.equal(
    reuseRefusal(checkout, worktree, 'package-lock.json', checkout),
    "your checkout's node_modules/@acme/own links to the repository's own libs/own (the worktree's tests would run your checkout's code)",
  );
  fs.rmSync(path.join(checkout, 'node_modules/@acme/own'));
  fs.symlinkSync(path.join(checkout, 'packages/a'), path.join(checkout, 'packages/a/node_modules/self'), 'dir');
  assert.match(
    reuseRefusal(checkout, worktree, 'package-lock.json', checkout) ?? '',
    /packages\/a\/node_modules\/self links to the repository's own packages\/a/,
  );
});
