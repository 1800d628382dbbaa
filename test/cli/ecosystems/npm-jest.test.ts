/**
 * jest with TypeScript through ts-jest (CommonJS, jest.config.js with the ts-jest preset; jest,
 * ts-jest, typescript and the types from the npm registry, 323 packages): npm ci in the user's
 * checkout, and in each cause's worktree `--deps copy` (the checkout's node_modules copied as hard
 * links, a tenth of a second where npm ci from the cache takes seconds; the other npm flows test
 * the install), the regression test a jest test in TypeScript run by path. The crash is the code
 * run as production runs it: compiled by tsc to the gitignored dist/ with source maps, then
 * `node --enable-source-maps dist/cli.js`, so the stack names the .ts files; a TypeError of a
 * duration written with a space before its unit.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ecosystemFlowTest, oneWorktreeReady, type Ecosystem } from './flow';
import { npmCi } from './node-test';

/** A policy whose longest wait is written '5 s'. */
const SPACED_UNIT = '{"initial":"200ms","max":"5 s","attempts":4}';

export const NPM_JEST: Ecosystem = {
  name: 'npm-jest',
  appRoot: '/srv/retry-policy',
  install: npmCi,
  suite: ['npm', 'test'],
  runArgs: ['--deps', 'copy'],
  verify: ({ flow, runId, why }) => {
    const { wt, step } = oneWorktreeReady(flow, runId, why);
    assert.match(
      step,
      /^node: your checkout's node_modules copied \(1 folder, hard links: the files shared, the folders its own\) \(\d+\.\d s\)$/,
      `copied, not installed ${why}`,
    );
    const jest = (top: string): number => fs.statSync(path.join(top, 'node_modules', 'jest', 'package.json')).ino;
    assert.equal(jest(wt), jest(flow.ws), `the worktree's jest is the checkout's file ${why}`);
    assert.notEqual(fs.statSync(path.join(wt, 'node_modules')).ino, fs.statSync(path.join(flow.ws, 'node_modules')).ino, 'in a folder of its own');
  },
  causes: [
    {
      cause: 'parse-duration-type-error',
      crash: { command: ['sh', '-c', 'npm run --silent build && node --enable-source-maps dist/cli.js "$0"', SPACED_UNIT], language: 'node' },
      events: 527,
      test: {
        file: 'test/spaced-unit.test.ts',
        content: `import { parseDuration } from '../src/duration';

describe('parseDuration', () => {
  it('reads a duration with a space before its unit', () => {
    expect(parseDuration('5 s')).toBe(5000);
  });

  it('names a duration it cannot read', () => {
    expect(() => parseDuration('soon')).toThrow(RangeError);
  });
});
`,
      },
      fix: {
        file: 'src/duration.ts',
        what: 'a duration with a space before its unit',
        content: `const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds in a duration written as a number and a unit: '250ms', '30s', '5 m', '1h'. */
export function parseDuration(text: string): number {
  const match = /^\\s*(\\d+)\\s*(ms|s|m|h)\\s*$/.exec(text);
  if (match === null) throw new RangeError(\`not a duration (a number and ms, s, m or h): \${JSON.stringify(text)}\`);
  return Number(match[1]) * UNIT_MS[match[2]];
}
`,
      },
    },
  ],
};

ecosystemFlowTest(NPM_JEST);
