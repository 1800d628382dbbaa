import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { installFailure, lastLines } from '../../src/deps/install-failure';
import { CacheColdError, InstallFailedError, LockfileOutOfStepError, ToolMissingError } from '../../src/deps/errors';
import type { InstallCommand } from '../../src/deps/install-command';
import type { NodeProject } from '../../src/deps/node-project';
import { exitCodeOf } from '../../src/cli/exitcodes';
import { ServiceStopError } from '../../src/core/errors';

const npm: NodeProject = { manager: 'npm', installDir: '', lockfile: 'package-lock.json', because: 'package-lock.json' };
const pnpm: NodeProject = { manager: 'pnpm', installDir: '', lockfile: 'pnpm-lock.yaml', because: 'packageManager: pnpm@9.15.9', pinned: '9.15.9' };
const berry: NodeProject = { manager: 'yarn-berry', installDir: '', lockfile: 'yarn.lock', because: 'yarn.lock', yarnLinker: 'pnp' };
const cmd: InstallCommand = { command: 'npm', args: ['ci'], env: {}, cwd: '/wt', display: 'npm ci', needs: 'npm' };

// Each package manager's own words, as it prints them (the lines the classification keys on).
const OUT_OF_STEP: Array<[NodeProject, string]> = [
  [
    npm,
    'npm error code EUSAGE\nnpm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.\nnpm error Missing: is-odd@3.0.1 from lock file',
  ],
  [pnpm, ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json'],
  [{ ...npm, manager: 'yarn-classic', lockfile: 'yarn.lock' }, 'error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.'],
  [berry, '➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.'],
];

test('a lock file out of step, in each package manager’s words: LockfileOutOfStepError naming the lock file, exit 20', () => {
  for (const [p, out] of OUT_OF_STEP) {
    const e = installFailure(p, cmd, 1, out);
    assert.ok(e instanceof LockfileOutOfStepError, out);
    assert.match(e.message, new RegExp(p.lockfile.replace('.', '\\.')));
    assert.equal(exitCodeOf(e), 20);
  }
});

test('the cache cold and the network off or gone: CacheColdError saying how to warm it, exit 20', () => {
  const outs = [
    "npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/is-number failed: cache mode is 'only-if-cached' but no cached response is available.",
    ' ERR_PNPM_NO_OFFLINE_TARBALL  A package is missing from the store but cannot download it in offline mode.',
    'npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/is-number failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
    '➤ YN0081: │ Network access have been disabled by configuration (is-number@npm:7.0.0)',
    "➤ YN0080: │ is-number@npm:7.0.0: Request to 'https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz' has been blocked because of your configuration settings",
    'error Can\'t make a request in offline mode ("https://registry.yarnpkg.com/is-number/-/is-number-7.0.0.tgz")',
  ];
  for (const out of outs) {
    const e = installFailure(npm, cmd, 1, out);
    assert.ok(e instanceof CacheColdError, out);
    assert.match(e.message, /cache/);
    assert.equal(exitCodeOf(e), 20);
  }
});

test('the package manager not found: ToolMissingError naming it and how to get it', () => {
  const e = installFailure(pnpm, { ...cmd, command: 'corepack', needs: 'corepack' }, 127, 'sh: corepack: command not found');
  assert.ok(e instanceof ToolMissingError);
  assert.match(e.message, /^corepack is needed .*packageManager: pnpm@9\.15\.9.*not installed here/);
  assert.equal(exitCodeOf(e), 20);
});

test('any other failure: InstallFailedError with the command, the folder, the exit status, the last lines and the log', () => {
  const out = 'npm warn deprecated x\n\u001b[31mnpm error code E404\u001b[0m\nnpm error 404 Not Found - GET https://registry.npmjs.org/no-such-pkg-zz\n';
  const e = installFailure(npm, cmd, 1, out, '/state/worktrees/r/c.install.log');
  assert.ok(e instanceof InstallFailedError);
  assert.match(e.message, /`npm ci` in \/wt exited with 1: .*npm error code E404 \/ npm error 404 Not Found/);
  assert.match(e.message, /\/state\/worktrees\/r\/c\.install\.log/);
  assert.ok(!e.message.includes('\u001b'), 'no colour codes');
  assert.equal(exitCodeOf(e), 20);
});

test('lastLines: the last non-empty lines, cut to 800 characters from the end', () => {
  assert.equal(lastLines('a\n\n b \nc\n', 2), 'b / c');
  assert.equal(lastLines('', 3), '(no output)');
  const long = lastLines('x'.repeat(2000), 1);
  assert.equal(long.length, 801);
  assert.ok(long.startsWith('…'));
});

test('every dependency stop is a ServiceStopError: the agent loop stops the run with the call unanswered, the model is never told it as a result', () => {
  const stops = [
    new LockfileOutOfStepError('package-lock.json', 'npm', 'x'),
    new InstallFailedError('npm ci', '/wt', 1, 'x'),
    new ToolMissingError('pnpm', 'x', 'y'),
    new CacheColdError('npm', 'x', 'y'),
  ];
  for (const e of stops) {
    assert.ok(e instanceof ServiceStopError, e.name);
    assert.equal(e.service, "the cause's worktree set-up");
  }
});
