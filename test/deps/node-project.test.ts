import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectNodeProject } from '../../src/deps/node-project';
import { tempDir } from '../support/temp-dir';

function tree(t: TestContext, files: Record<string, string>): string {
  const dir = tempDir(t, 'triage-deps-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const pkg = (extra: Record<string, unknown> = {}): string => JSON.stringify({ name: 'x', version: '1.0.0', ...extra });

test('the lock file names the package manager when package.json pins none', (t) => {
  const cases: Array<[string, string]> = [
    ['package-lock.json', 'npm'],
    ['npm-shrinkwrap.json', 'npm'],
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn-classic'],
  ];
  for (const [lock, manager] of cases) {
    const dir = tree(t, { 'package.json': pkg(), [lock]: '' });
    assert.deepEqual(detectNodeProject(dir, ''), { manager, installDir: '', lockfile: lock, because: lock }, lock);
  }
});

test('yarn.lock with a .yarnrc.yml (or a release in .yarn/releases) is Yarn berry, and its linker and yarnPath are read', (t) => {
  const berry = tree(t, { 'package.json': pkg(), 'yarn.lock': '', '.yarnrc.yml': 'nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.9.2.cjs\n' });
  assert.deepEqual(detectNodeProject(berry, ''), {
    manager: 'yarn-berry',
    installDir: '',
    lockfile: 'yarn.lock',
    because: 'yarn.lock',
    yarnPath: '.yarn/releases/yarn-4.9.2.cjs',
    yarnLinker: 'node-modules',
  });
  const pnp = tree(t, { 'package.json': pkg(), 'yarn.lock': '', '.yarn/releases/yarn-4.cjs': '' });
  assert.equal(detectNodeProject(pnp, '')?.manager, 'yarn-berry');
  assert.equal(detectNodeProject(pnp, '')?.yarnLinker, 'pnp', "Yarn 2+'s default linker when none is set");
});

test('packageManager wins over the lock file, and its version is pinned (corepack runs it); a hash suffix is dropped', (t) => {
  const dir = tree(t, { 'package.json': pkg({ packageManager: 'pnpm@9.15.9+sha512.abc' }), 'package-lock.json': '' });
  assert.deepEqual(detectNodeProject(dir, ''), {
    manager: 'pnpm',
    installDir: '',
    lockfile: 'package-lock.json',
    pinned: '9.15.9',
    because: 'packageManager: pnpm@9.15.9',
  });
  const y1 = tree(t, { 'package.json': pkg({ packageManager: 'yarn@1.22.22' }), 'yarn.lock': '' });
  assert.equal(detectNodeProject(y1, '')?.manager, 'yarn-classic');
  const y4 = tree(t, { 'package.json': pkg({ packageManager: 'yarn@4.9.2' }) });
  assert.deepEqual(
    { m: detectNodeProject(y4, '')?.manager, lock: detectNodeProject(y4, '')?.lockfile },
    { m: 'yarn-berry', lock: 'yarn.lock' },
    'pinned without a lock file: the lock it will need',
  );
});

test('a packageManager that is not name@version is ignored (the lock file decides)', (t) => {
  const dir = tree(t, { 'package.json': pkg({ packageManager: 'bun' }), 'package-lock.json': '' });
  assert.equal(detectNodeProject(dir, '')?.manager, 'npm');
  assert.equal(detectNodeProject(dir, '')?.pinned, undefined);
});

test('a monorepo: the nearest folder up from the workspace with a lock file is where the install runs', (t) => {
  const dir = tree(t, {
    'package.json': pkg({ packageManager: 'pnpm@9.15.9' }),
    'pnpm-lock.yaml': '',
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'packages/core/package.json': pkg({ name: '@x/core' }),
  });
  const p = detectNodeProject(dir, 'packages/core/');
  assert.equal(p?.installDir, '');
  assert.equal(p?.lockfile, 'pnpm-lock.yaml');
  const nested = tree(t, { 'app/package.json': pkg(), 'app/package-lock.json': '', 'README.md': '' });
  assert.deepEqual(
    { dir: detectNodeProject(nested, 'app')?.installDir, lock: detectNodeProject(nested, 'app')?.lockfile },
    { dir: 'app', lock: 'app/package-lock.json' },
  );
});

test('no package.json, a package.json without a lock or a pin, or an unreadable package.json: not a project to install', (t) => {
  assert.equal(detectNodeProject(tree(t, { 'README.md': '' }), ''), undefined);
  assert.equal(detectNodeProject(tree(t, { 'package.json': pkg() }), ''), undefined);
  assert.equal(detectNodeProject(tree(t, { 'package.json': '{ not json', 'package-lock.json': '' }), ''), undefined);
});

test('no lock file anywhere: the nearest package.json that declares dependencies installs with npm; one without dependencies, or a lock file above, wins nothing', (t) => {
  const lib = tree(t, { 'package.json': pkg({ devDependencies: { mocha: '10.2.0' } }) });
  assert.deepEqual(detectNodeProject(lib, ''), {
    manager: 'npm',
    installDir: '',
    lockfile: 'package.json',
    because: 'package.json (no lock file)',
    lockless: true,
  });
  assert.equal(detectNodeProject(tree(t, { 'package.json': pkg() }), ''), undefined, 'nothing to install');
  assert.equal(detectNodeProject(tree(t, { 'package.json': pkg({ dependencies: {} }) }), ''), undefined, 'an empty dependencies field');
  const mono = tree(t, {
    'package.json': pkg({ workspaces: ['packages/*'] }),
    'package-lock.json': '',
    'packages/a/package.json': pkg({ dependencies: { ms: '2.1.3' } }),
  });
  assert.equal(detectNodeProject(mono, 'packages/a')?.lockfile, 'package-lock.json', "the root's lock file, not the package's own package.json");
  const nested = tree(t, { 'package.json': pkg({ dependencies: { ms: '2.1.3' } }), 'sub/package.json': pkg({ devDependencies: { mocha: '10.2.0' } }) });
  assert.equal(detectNodeProject(nested, 'sub')?.installDir, 'sub', 'the nearest one');
});
