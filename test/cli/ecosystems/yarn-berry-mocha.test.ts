/**
 * Yarn berry (4, `packageManager: yarn@4.18.1` run through corepack, no release committed under
 * .yarn/releases) with `nodeLinker: node-modules` in .yarnrc.yml, plain JavaScript tested by mocha
 * (a .mocharc.json whose `spec` names every test file), and semver from the npm registry:
 * `corepack yarn install --immutable` in the user's checkout and in each cause's worktree (from
 * Yarn's global cache), the regression test a mocha test run alone though the config's `spec`
 * names them all. The crash is the CLI given a version written short ("2.1"): semver.parse gives
 * null, and reading its `major` is a TypeError.
 */
import { spawnSync } from 'node:child_process';
import { ecosystemFlowTest, type Ecosystem } from './flow';

/** This machine's corepack: no signature keys to check against, and Yarn berry from the npm registry. */
const COREPACK_ENV = { COREPACK_INTEGRITY_KEYS: '0', COREPACK_NPM_REGISTRY: 'https://registry.npmjs.org', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' };

function yarnInstall(dir: string): void {
  const r = spawnSync('corepack', ['yarn', 'install', '--immutable'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...COREPACK_ENV } });
  if (r.status !== 0) throw new Error(`corepack yarn install --immutable in ${dir}:\n${r.stdout}\n${r.stderr}`);
}

export const YARN_BERRY_MOCHA: Ecosystem = {
  name: 'yarn-berry-mocha',
  appRoot: '/srv/release-bump',
  install: yarnInstall,
  suite: ['corepack', 'yarn', 'test'],
  env: COREPACK_ENV,
  causes: [
    {
      cause: 'next-version-type-error',
      crash: { command: ['node', 'bin/release-bump.js', '2.1', 'minor'], language: 'node' },
      events: 377,
      test: {
        file: 'test/short-version.test.js',
        content: `'use strict';
const assert = require('node:assert/strict');
const { nextVersion } = require('../src/bump');

describe('nextVersion of a version written short', () => {
  it('reads 2.1 as 2.1.0 and 3 as 3.0.0', () => {
    assert.equal(nextVersion('2.1', 'minor'), '2.2.0');
    assert.equal(nextVersion('3', 'patch'), '3.0.1');
  });

  it('refuses what is no version at all', () => {
    assert.throws(() => nextVersion('latest', 'patch'), RangeError);
  });
});
`,
      },
      fix: {
        file: 'src/bump.js',
        what: 'a version written short',
        content: `'use strict';
const semver = require('semver');

const KINDS = ['major', 'minor', 'patch'];

/** The version after a release of \`kind\` ('major', 'minor', 'patch') from \`current\` ('1.4.0', 'v1.4.0', or short: '2.1', '3'). */
function nextVersion(current, kind) {
  if (!KINDS.includes(kind)) throw new RangeError(\`not a release kind: \${kind}\`);
  const text = String(current).trim().replace(/^v/, '');
  const v = semver.parse(text) ?? (/^\\d+(\\.\\d+)?$/.test(text) ? semver.coerce(text) : null);
  if (v === null) throw new RangeError(\`not a version: \${current}\`);
  const next = { major: v.major, minor: v.minor, patch: v.patch };
  if (kind === 'major') return \`\${next.major + 1}.0.0\`;
  if (kind === 'minor') return \`\${next.major}.\${next.minor + 1}.0\`;
  return \`\${next.major}.\${next.minor}.\${next.patch + 1}\`;
}

module.exports = { nextVersion };
`,
      },
    },
  ],
};

ecosystemFlowTest(YARN_BERRY_MOCHA);
