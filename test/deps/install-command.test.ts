import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { installCommand, type InstallTools } from '../../src/deps/install-command';
import type { NodeProject } from '../../src/deps/node-project';
import { DEFAULT_DEPS, type DepsOptions } from '../../src/deps/options';

const tools = (onPath: string[] = ['npm', 'pnpm', 'yarn']): InstallTools => ({
  corepack: '/usr/bin/corepack',
  onPath: (c) => (onPath.includes(c) ? `/usr/bin/${c}` : undefined),
  node: '/usr/bin/node',
});
const project = (p: Partial<NodeProject>): NodeProject => ({
  manager: 'npm',
  installDir: '',
  lockfile: 'package-lock.json',
  because: 'package-lock.json',
  ...p,
});
const opts = (o: Partial<DepsOptions> = {}): DepsOptions => ({ ...DEFAULT_DEPS, ...o });

test('npm: npm ci from the cache first, scripts off by default; --offline with network offline; scripts on when allowed', () => {
  const c = installCommand(project({}), '/wt', opts(), tools());
  assert.equal(c.command, 'npm');
  assert.deepEqual(c.args, ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts']);
  assert.equal(c.cwd, '/wt');
  assert.equal(installCommand(project({}), '/wt', opts({ network: 'offline' }), tools()).args.includes('--offline'), true);
  assert.equal(installCommand(project({}), '/wt', opts({ scripts: true }), tools()).args.includes('--ignore-scripts'), false);
  assert.equal(installCommand(project({}), '/wt', opts({ network: 'offline' }), tools()).env.COREPACK_ENABLE_NETWORK, '0');
});

test('pnpm and yarn classic: frozen lock file; yarn berry: --immutable, builds skipped, the node-modules linker asked for by environment', () => {
  const pnpm = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml' }), '/wt', opts(), tools());
  assert.deepEqual(
    [pnpm.command, ...pnpm.args],
    ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts', '--config.confirm-modules-purge=false', '--reporter=append-only'],
  );
  const pnpmOffline = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml' }), '/wt', opts({ network: 'offline' }), tools());
  assert.deepEqual(pnpmOffline.args.slice(0, 3), ['install', '--frozen-lockfile', '--offline']);
  assert.equal(pnpmOffline.args.includes('--prefer-offline'), false);
  const classic = installCommand(project({ manager: 'yarn-classic', lockfile: 'yarn.lock' }), '/wt', opts({ network: 'offline' }), tools());
  assert.deepEqual(
    classic.args,
    ['install', '--frozen-lockfile', '--non-interactive', '--offline', '--ignore-scripts'],
    'Yarn 1: --offline alone (with --prefer-offline too it goes to the network)',
  );
  const classicWarm = installCommand(project({ manager: 'yarn-classic', lockfile: 'yarn.lock' }), '/wt', opts(), tools());
  assert.deepEqual(classicWarm.args, ['install', '--frozen-lockfile', '--non-interactive', '--prefer-offline', '--ignore-scripts']);
  const berry = installCommand(project({ manager: 'yarn-berry', lockfile: 'yarn.lock', yarnLinker: 'pnp' }), '/wt', opts({ network: 'offline' }), tools());
  assert.deepEqual(berry.args, ['install', '--immutable', '--mode=skip-build']);
  assert.equal(berry.env.YARN_NODE_LINKER, 'node-modules');
  assert.equal(berry.env.YARN_ENABLE_NETWORK, '0');
  const linked = installCommand(project({ manager: 'yarn-berry', lockfile: 'yarn.lock', yarnLinker: 'node-modules' }), '/wt', opts({ scripts: true }), tools());
  assert.equal(linked.env.YARN_NODE_LINKER, undefined, 'already configured: the repository says it');
  assert.deepEqual(linked.args, ['install', '--immutable']);
});

test('a pinned packageManager runs through corepack at that version; a carried yarnPath release runs with node', () => {
  const pinned = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml', pinned: '9.15.9' }), '/wt', opts(), tools());
  assert.equal(pinned.command, '/usr/bin/corepack');
  assert.deepEqual(pinned.args.slice(0, 2), ['pnpm@9.15.9', 'install']);
  assert.equal(pinned.needs, 'corepack');
  assert.match(pinned.display, /^corepack pnpm@9\.15\.9 install --frozen-lockfile/);
  const carried = installCommand(
    project({ manager: 'yarn-berry', lockfile: 'pkg/yarn.lock', installDir: 'pkg', yarnPath: '.yarn/releases/yarn-4.9.2.cjs', pinned: '4.9.2' }),
    '/wt',
    opts(),
    tools(),
  );
  assert.equal(carried.command, '/usr/bin/node');
  assert.deepEqual(carried.args.slice(0, 2), ['/wt/pkg/.yarn/releases/yarn-4.9.2.cjs', 'install']);
  assert.equal(carried.cwd, '/wt/pkg');
});

test('pnpm or yarn not on the PATH and not pinned: corepack runs it; without corepack the command names what is needed', () => {
  const viaCorepack = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml' }), '/wt', opts(), tools(['npm']));
  assert.deepEqual([viaCorepack.command, viaCorepack.args[0]], ['/usr/bin/corepack', 'pnpm']);
  assert.equal(viaCorepack.needs, 'pnpm', 'unpinned: pnpm is what is missing, corepack one way to get it');
  const none = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml' }), '/wt', opts(), { ...tools(['npm']), corepack: undefined });
  assert.deepEqual([none.command, none.needs], ['corepack', 'pnpm']);
  const yarn = installCommand(project({ manager: 'yarn-classic', lockfile: 'yarn.lock' }), '/wt', opts(), { ...tools(['npm']), corepack: undefined });
  assert.equal(yarn.needs, 'yarn');
  const pinned = installCommand(project({ manager: 'pnpm', lockfile: 'pnpm-lock.yaml', pinned: '9.15.9' }), '/wt', opts(), {
    ...tools(['npm']),
    corepack: undefined,
  });
  assert.equal(pinned.needs, 'corepack', 'pinned: corepack runs that exact version');
});

test('Yarn berry pinning nothing and carrying no release, yarn not on the PATH: corepack runs the berry major its lock file was written by, never its default Yarn 1', () => {
  const berry = (yarnLockVersion?: number): string[] => {
    const c = installCommand(
      project({ manager: 'yarn-berry', lockfile: 'yarn.lock', ...(yarnLockVersion ? { yarnLockVersion } : {}) }),
      '/wt',
      opts(),
      tools(['npm']),
    );
    assert.equal(c.command, '/usr/bin/corepack');
    assert.equal(c.needs, 'yarn');
    return c.args.slice(0, 3);
  };
  assert.deepEqual(berry(10), ['yarn@4', 'install', '--immutable']);
  assert.deepEqual(berry(8), ['yarn@4', 'install', '--immutable']);
  assert.deepEqual(berry(6), ['yarn@3', 'install', '--immutable']);
  assert.deepEqual(berry(4), ['yarn@2', 'install', '--immutable']);
  assert.deepEqual(berry(), ['yarn@4', 'install', '--immutable'], 'no format to go by: the newest major');
  const classic = installCommand(project({ manager: 'yarn-classic', lockfile: 'yarn.lock' }), '/wt', opts(), tools(['npm']));
  assert.equal(classic.args[0], 'yarn', 'Yarn 1 is what a classic lock file wants');
  const pinned = installCommand(project({ manager: 'yarn-berry', lockfile: 'yarn.lock', pinned: '4.18.1', yarnLockVersion: 10 }), '/wt', opts(), tools());
  assert.equal(pinned.args[0], 'yarn@4.18.1', 'a pin wins');
  const onPathYarn = installCommand(project({ manager: 'yarn-berry', lockfile: 'yarn.lock', yarnLockVersion: 10 }), '/wt', opts(), tools());
  assert.equal(onPathYarn.command, 'yarn', "the user's own yarn on the PATH is run as it is");
});

test('corepack is told not to pin: without COREPACK_ENABLE_AUTO_PIN=0 it writes packageManager into package.json', () => {
  for (const manager of ['npm', 'pnpm', 'yarn-classic', 'yarn-berry'] as const) {
    const c = installCommand(project({ manager, lockfile: manager === 'pnpm' ? 'pnpm-lock.yaml' : 'yarn.lock', pinned: '1.0.0' }), '/wt', opts(), tools());
    assert.equal(c.env.COREPACK_ENABLE_AUTO_PIN, '0', manager);
    assert.equal(c.env.COREPACK_ENABLE_DOWNLOAD_PROMPT, '0', manager);
  }
});

test('no lock file: npm install from package.json, writing no lock file and saving nothing, cache first, scripts off', () => {
  const c = installCommand(project({ lockfile: 'package.json', because: 'package.json (no lock file)', lockless: true }), '/wt', opts(), tools());
  assert.deepEqual(
    [c.command, ...c.args],
    ['npm', 'install', '--no-package-lock', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'],
  );
});
