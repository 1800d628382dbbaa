/**
 * node:test with a dependency from the npm registry (ms): npm ci in the user's checkout and in each
 * cause's worktree (from npm's cache), the crash a TypeError of a number where a string was meant.
 */
import { spawnSync } from 'node:child_process';
import type { Ecosystem } from './flow';

export function npmCi(dir: string): void {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ci in ${dir}: ${r.stderr}`);
}

export const NODE_TEST: Ecosystem = {
  name: 'node-test',
  appRoot: '/srv/retry-config',
  install: npmCi,
  suite: ['npm', 'test'],
  causes: [
    {
      cause: 'parse-delay-type-error',
      crash: { command: ['node', 'src/cli.js', '{"retryDelay":1500}'], language: 'node' },
      events: 812,
      test: {
        file: 'test/delay-number.test.js',
        content: `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseDelay } = require('../src/delay');

test('a delay given as a number of milliseconds', () => {
  assert.equal(parseDelay(1500), 1500);
});
`,
      },
      fix: {
        file: 'src/delay.js',
        what: 'a delay given as a number',
        content: `'use strict';
const ms = require('ms');

/** A retry delay from the config: '5s', '2m', '250ms', or a number of milliseconds. */
function parseDelay(value) {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  const delay = typeof value === 'string' ? ms(value.trim()) : undefined;
  if (delay === undefined) throw new RangeError(\`not a delay: \${value}\`);
  return delay;
}

module.exports = { parseDelay };
`,
      },
    },
  ],
};
