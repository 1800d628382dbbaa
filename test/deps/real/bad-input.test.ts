/**
 * A cause's worktree meets bad input, with the real package managers (npm, pnpm through corepack,
 * go), not their recorded words: a lock file out of step, an install that fails, a cold cache with
 * downloading off, a module missing from Go's cache. Each is its typed DependencyError (exit 20),
 * no readiness record is written (the next try makes the worktree ready again), and the user's
 * checkout is not written. The fixture is test/fixtures/ecosystems/node-test (ms from npm).
 */
import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareWorktree, type PrepareSpec } from '../../../src/deps/prepare';
import { DEFAULT_DEPS, type DepsOptions } from '../../../src/deps/options';
import { CacheColdError, InstallFailedError, LockfileOutOfStepError, type DependencyError } from '../../../src/deps/errors';
import { exitCodeOf } from '../../../src/cli/exitcodes';
import { tempDir } from '../../support/temp-dir';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'ecosystems');
const COREPACK = {
  COREPACK_INTEGRITY_KEYS: '0',
  COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
  COREPACK_NPM_REGISTRY: process.env.COREPACK_NPM_REGISTRY ?? 'https://registry.npmjs.org',
};

function sh(cwd: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

/** Every file under dir (but .git) with its bytes, to show the checkout was not written. */
function snapshot(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !path.join(e.parentPath, e.name).includes(`${path.sep}.git${path.sep}`))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
    .map((f) => `${path.relative(dir, f)}\n${fs.readFileSync(f, 'base64')}`)
    .join('\n');
}

/** A checkout of the fixture, edited by `edit` and committed, and a worktree of it as the run makes one. */
function repo(
  t: TestContext,
  fixture: string,
  edit: (dir: string) => void,
): { checkout: string; spec(o?: Partial<PrepareSpec> & { options?: DepsOptions }): PrepareSpec } {
  const root = tempDir(t, 'triage-deps-bad-');
  const checkout = path.join(root, 'checkout');
  fs.cpSync(path.join(FIXTURES, fixture), checkout, { recursive: true });
  edit(checkout);
  const git = (...a: string[]): string => sh(checkout, 'git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...a]);
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'base');
  const worktree = path.join(root, 'wt');
  git('worktree', 'add', '--quiet', '--detach', worktree, 'HEAD');
  return {
    checkout,
    spec: (o = {}) => ({
      checkoutTop: checkout,
      worktreeTop: worktree,
      prefix: '',
      options: DEFAULT_DEPS,
      record: `${worktree}.ready.json`,
      log: `${worktree}.install.log`,
      made: true,
      ...o,
    }),
  };
}

function editJson(file: string, f: (j: Record<string, unknown>) => void): void {
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  f(j);
  fs.writeFileSync(file, JSON.stringify(j, null, 2) + '\n');
}

async function expectStop<E extends DependencyError>(s: PrepareSpec, checkout: string, type: new (...a: never[]) => E, message: RegExp): Promise<E> {
  const before = snapshot(checkout);
  let caught: unknown;
  await prepareWorktree(s).catch((e: unknown) => (caught = e));
  assert.ok(caught instanceof type, `expected ${type.name}, got ${String(caught)}`);
  assert.match(caught.message, message);
  assert.equal(exitCodeOf(caught), 20, 'a dependency stop exits with 20');
  assert.equal(fs.existsSync(s.record), false, 'no readiness record: the next try makes the worktree ready again');
  assert.equal(snapshot(checkout), before, "the user's checkout is not written");
  return caught;
}

test('npm: a dependency in package.json that the lock file does not have: LockfileOutOfStepError naming package-lock.json (real npm ci)', async (t) => {
  const r = repo(t, 'node-test', (d) => editJson(path.join(d, 'package.json'), (j) => ((j.dependencies as Record<string, string>)['is-number'] = '7.0.0')));
  await expectStop(r.spec(), r.checkout, LockfileOutOfStepError, /^The lock file package-lock\.json is out of step with package\.json .*npm/);
});

test('npm: the package not in the cache and --deps-network offline: CacheColdError saying how to warm it (real npm ci --offline, an empty cache)', async (t) => {
  const r = repo(t, 'node-test', () => undefined);
  const cache = tempDir(t, 'triage-deps-empty-cache-');
  const s = r.spec({ options: { ...DEFAULT_DEPS, network: 'offline' }, env: { ...process.env, npm_config_cache: cache } });
  await expectStop(s, r.checkout, CacheColdError, /cache/i);
  assert.ok(!fs.existsSync(path.join(s.worktreeTop, 'node_modules', 'ms')), 'nothing was installed');
});

test('npm with lifecycle scripts allowed: a postinstall that fails is InstallFailedError with the command, the exit status, its last lines and the log', async (t) => {
  const r = repo(t, 'node-test', (d) =>
    editJson(
      path.join(d, 'package.json'),
      (j) => ((j.scripts as Record<string, string>).postinstall = 'node -e "console.error(\'native build failed: no compiler\'); process.exit(3)"'),
    ),
  );
  const s = r.spec({ options: { ...DEFAULT_DEPS, scripts: true } });
  const e = await expectStop(s, r.checkout, InstallFailedError, /`npm ci [^`]*` in .* exited with \d+: .*native build failed: no compiler/s);
  assert.ok(e.log && fs.readFileSync(e.log, 'utf8').includes('native build failed'), 'the whole output is in the log');
  // The same worktree with scripts off (the default) installs: the package itself was fine.
  const ready = await prepareWorktree({ ...s, options: DEFAULT_DEPS });
  assert.match(ready.steps[0].what, /--ignore-scripts/);
  assert.ok(fs.existsSync(path.join(s.worktreeTop, 'node_modules', 'ms', 'package.json')));
});

test(
  'pnpm (packageManager, through corepack): a lock file out of step is LockfileOutOfStepError naming pnpm-lock.yaml (real pnpm install --frozen-lockfile)',
  { timeout: 300_000 },
  async (t) => {
    const env = { ...process.env, ...COREPACK, COREPACK_ENABLE_AUTO_PIN: '0' };
    const r = repo(t, 'node-test', (d) => {
      fs.rmSync(path.join(d, 'package-lock.json'));
      editJson(path.join(d, 'package.json'), (j) => (j.packageManager = 'pnpm@9.15.9'));
      sh(d, 'corepack', ['pnpm', 'install', '--lockfile-only', '--prefer-offline', '--ignore-scripts'], env);
      editJson(path.join(d, 'package.json'), (j) => ((j.dependencies as Record<string, string>)['is-number'] = '7.0.0'));
    });
    await expectStop(r.spec({ env }), r.checkout, LockfileOutOfStepError, /^The lock file pnpm-lock\.yaml is out of step .*pnpm/);
  },
);

test('Go: a module the cache does not hold, downloads off: CacheColdError before any test runs (real go list, an empty GOMODCACHE)', async (t) => {
  const r = repo(t, 'go-modcache', () => undefined);
  const cache = tempDir(t, 'triage-deps-empty-gomodcache-');
  t.after(() => spawnSync('chmod', ['-R', 'u+w', cache])); // the module cache is read-only
  const s = r.spec({ env: { ...process.env, GOMODCACHE: cache, GOFLAGS: '' } });
  await expectStop(s, r.checkout, CacheColdError, /example\.com\/units/);
});
