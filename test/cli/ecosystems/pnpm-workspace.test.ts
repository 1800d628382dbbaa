/**
 * A pnpm workspace (pnpm 10 pinned by packageManager, run through corepack): packages/core with
 * bytes from the npm registry, packages/cli depending on it with `workspace:*`; the root's test
 * script runs each package's node:test suite (`pnpm -r test`). The crash runs the CLI and dies in
 * packages/core; the regression test runs in packages/core with the root's one install (from
 * pnpm's store) above it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ecosystemFlowTest, oneWorktreeReady, type Ecosystem } from './flow';

const PNPM = 'pnpm@10.34.9';

/**
 * The developer's `corepack enable`, into a folder of its own: the root's `pnpm -r test` finds
 * pnpm on the PATH (corepack's shim, which runs the pinned version), as after corepack enable.
 */
const shims = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-corepack-shims-'));
process.once('exit', () => fs.rmSync(shims, { recursive: true, force: true }));
const enable = spawnSync('corepack', ['enable', '--install-directory', shims, 'pnpm'], { encoding: 'utf8' });
if (enable.status !== 0) throw new Error(`corepack enable: ${enable.stderr}`);

const ENV: NodeJS.ProcessEnv = {
  COREPACK_INTEGRITY_KEYS: '0',
  COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
  PATH: `${shims}${path.delimiter}${process.env.PATH ?? ''}`,
};

function pnpmInstall(dir: string): void {
  const r = spawnSync('corepack', ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...ENV },
  });
  if (r.status !== 0) throw new Error(`corepack pnpm install in ${dir}: ${r.stdout}\n${r.stderr}`);
}

const CAUSE = 'upload-limit-type-error';
const TEST_FILE = 'packages/core/test/unlimited.test.js';

export const PNPM_WORKSPACE: Ecosystem = {
  name: 'pnpm-workspace',
  appRoot: '/srv/upload-quota',
  install: pnpmInstall,
  suite: ['corepack', 'pnpm', 'test'],
  env: ENV,
  causes: [
    {
      cause: CAUSE,
      crash: { command: ['node', 'packages/cli/src/cli.js', '[{"name":"team","upload":"10mb"},{"name":"enterprise"}]'], language: 'node' },
      events: 341,
      test: {
        file: TEST_FILE,
        content: `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { uploadLimit, describeLimit } = require('../src/limits');

test('a plan with no upload limit', () => {
  assert.equal(uploadLimit({ name: 'enterprise' }), Infinity);
  assert.equal(describeLimit(Infinity), 'no limit');
});
`,
      },
      fix: {
        file: 'packages/core/src/limits.js',
        what: 'a plan with no upload limit',
        content: `'use strict';
const bytes = require('bytes');

/** A plan's upload limit in bytes, from its config: '10mb', '1.5gb', a number of bytes, or none (no limit). */
function uploadLimit(plan) {
  if (plan.upload === undefined || plan.upload === null) return Infinity;
  if (typeof plan.upload === 'number') return plan.upload;
  const limit = bytes.parse(plan.upload.trim());
  if (limit === null) throw new RangeError(\`not a size: \${plan.upload}\`);
  return limit;
}

/** How a limit reads: "10 MB", or "no limit". */
function describeLimit(limit) {
  if (limit === Infinity) return 'no limit';
  return bytes.format(limit, { unitSeparator: ' ' });
}

module.exports = { uploadLimit, describeLimit };
`,
      },
    },
  ],
  verify: ({ flow, runId, why }) => {
    // What the model saw: both runs of the regression test were in packages/core, with its own runner.
    const runs = flow.model.results().filter((r) => /^tests: /.test(r.text));
    for (const r of runs)
      assert.match(r.text, /\nrunner: node \(scripts\.test runs node --test, in the package packages\/core\)/, `run_tests ran in packages/core ${why}`);
    // The run's record: one install, at the workspace's root, with the pinned pnpm through corepack.
    const { wt, step } = oneWorktreeReady(flow, runId, why);
    assert.match(
      step,
      new RegExp(
        `^node: corepack ${PNPM.replace(/\./g, '\\.')} install --frozen-lockfile --prefer-offline --ignore-scripts .* in \\. \\(packageManager: ${PNPM.replace(/\./g, '\\.')}\\)`,
      ),
      `the root's install, pnpm as pinned ${why}`,
    );
    // From pnpm's store: nothing downloaded.
    const log = fs.readFileSync(`${wt}.install.log`, 'utf8');
    assert.match(log, /Progress: resolved \d+, reused [1-9]\d*, downloaded 0, added \d+, done/, `installed from pnpm's store ${why}:\n${log}`);
    // The root's node_modules holds the packages; packages/core's bytes is a link into it, packages/cli's core a link to the package.
    assert.ok(fs.existsSync(path.join(wt, 'node_modules', '.modules.yaml')), `pnpm installed at the worktree's root ${why}`);
    assert.ok(!fs.existsSync(path.join(wt, 'packages', 'core', 'node_modules', '.modules.yaml')), `no install of its own in packages/core ${why}`);
    const bytes = fs.realpathSync(path.join(wt, 'packages', 'core', 'node_modules', 'bytes'));
    assert.ok(bytes.startsWith(path.join(fs.realpathSync(wt), 'node_modules', '.pnpm') + path.sep), `packages/core's bytes is the root's: ${bytes}`);
    assert.equal(
      fs.realpathSync(path.join(wt, 'packages', 'cli', 'node_modules', '@upload-quota', 'core')),
      path.join(fs.realpathSync(wt), 'packages', 'core'),
    );
  },
};

ecosystemFlowTest(PNPM_WORKSPACE);
