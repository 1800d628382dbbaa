import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runNodeTests } from '../../src/triage/testrun';
import { parseNodeEvents } from '../../src/runners/node-test';
import { formatTestRun, runTestsTool } from '../../src/tools/run-tests';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const PASSING = `'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
test('subtracts', () => assert.equal(3 - 1, 2));
`;
const FAILING = `'use strict';
const { test, describe } = require('node:test');
const assert = require('node:assert');
describe('calc', () => {
  test('divides', () => assert.equal(6 / 3, 2));
  test('refuses zero', () => assert.throws(() => 1 / 0, RangeError));
});
`;
const BROKEN = `require('./no-such-module');\n`;

async function ws(t: Parameters<typeof tempDir>[0], files: Record<string, string>): Promise<string> {
  const dir = tempDir(t);
  await writeTree(dir, { 'package.json': '{"name":"w","private":true}\n', ...files });
  return dir;
}

test('runNodeTests counts passes and failures and names the failing tests', async (t) => {
  const dir = await ws(t, { 'test/a.test.js': PASSING, 'test/b.test.js': FAILING, 'src/x.js': 'module.exports = 1;\n' });
  const r = await runNodeTests(dir);
  assert.equal(r.passed, 3);
  assert.equal(r.failed, 1);
  assert.deepEqual(r.failures, ['calc > refuses zero']);
  assert.notEqual(r.exitCode, 0);
  assert.match(r.details[0], /Missing expected exception/);
  assert.match(r.details[0], /\(\.\/test\/b\.test\.js:6:\d+\)/);
  assert.ok(!/node:internal/.test(r.details[0]), r.details[0]);
});

test('runNodeTests runs only the files given; a passing file exits 0', async (t) => {
  const dir = await ws(t, { 'test/a.test.js': PASSING, 'test/b.test.js': FAILING });
  const r = await runNodeTests(dir, ['test/a.test.js']);
  assert.deepEqual([r.passed, r.failed, r.failures, r.exitCode], [2, 0, [], 0]);
});

test('a test file that cannot load is a failure named by its path, with the reason', async (t) => {
  const dir = await ws(t, { 'test/broken.test.js': BROKEN });
  const r = await runNodeTests(dir);
  assert.equal(r.failed, 1);
  assert.deepEqual(r.failures, ['./test/broken.test.js']);
  assert.match(r.details[0], /Cannot find module '\.\/no-such-module'/);
});

test('run_tests text is the same on every run: no durations, no absolute paths', async (t) => {
  const dir = await ws(t, { 'test/a.test.js': PASSING, 'test/b.test.js': FAILING, 'test/c.test.js': BROKEN });
  const tool = runTestsTool();
  assert.equal(tool.readOnly, true);
  const a = await tool.run({}, context(dir));
  const b = await tool.run({}, context(dir));
  assert.equal(a.content, b.content);
  assert.ok(a.content.startsWith('tests: 3 passed, 2 failed\n'), a.content);
  assert.match(a.content, /FAILED: calc > refuses zero/);
  assert.match(a.content, /FAILED: \.\/test\/c\.test\.js/);
  assert.ok(!a.content.includes(dir), 'the workspace path is replaced with "."');
  assert.ok(!/duration/.test(a.content));
  assert.ok(!/node:internal/.test(a.content));
});

test('run_tests: bad arguments are error results', async (t) => {
  const dir = await ws(t, { 'test/a.test.js': PASSING });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ files: 'test/a.test.js' }, /argument "files" should be an array, found a string/],
    [{ files: [1] }, /argument "files\[0\]" should be a string, found a number/],
    [{ files: ['../x.test.js'] }, /outside the workspace/],
    [{ files: ['test/none.test.js'] }, /test file "test\/none.test.js" does not exist/],
    [{ files: ['test'] }, /"test" is not a file/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(runTestsTool(), args, context(dir));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
});

test('a workspace without tests reports none', async (t) => {
  const dir = await ws(t, { 'src/x.js': '' });
  const out = await runTestsTool().run({}, context(dir));
  assert.equal(out.content, 'tests: 0 passed, 0 failed (no test files found)\nrunner: node (package.json names no other runner)');
});

test('run_tests honours the abort signal: the child is stopped and the call rejects', async (t) => {
  const dir = await ws(t, { 'test/hang.test.js': "require('node:test').test('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n" });
  const ac = new AbortController();
  const running = runTestsTool().run({}, context(dir, { signal: ac.signal }));
  setTimeout(() => ac.abort(new Error('stop now')), 200);
  await assert.rejects(running, /stop now/);
});

test('a run past its timeout is stopped and reported as a failure', async (t) => {
  const dir = await ws(t, { 'test/hang.test.js': "require('node:test').test('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n" });
  const r = await runNodeTests(dir, undefined, undefined, { timeoutMs: 300 });
  assert.equal(r.timedOut, true);
  assert.ok(r.failed >= 1);
  assert.match(r.failures.join('\n'), /timed out after 0 s|timed out after/);
});

test('node events: a suite failing only because a test in it failed, and TODO failures, are not counted', () => {
  const ev = (o: Record<string, unknown>): string => JSON.stringify(o);
  const text = [
    ev({ t: 'start', name: 's', nesting: 0, file: '/w/a.test.js' }),
    ev({ t: 'start', name: 'inner', nesting: 1, file: '/w/a.test.js' }),
    ev({
      t: 'fail',
      name: 'inner',
      nesting: 1,
      file: '/w/a.test.js',
      error: {
        message: 'boom',
        failureType: 'testCodeFailure',
        cause: { message: 'boom', stack: 'Error: boom\n    at x (/w/a.js:1:1)\n    at y (node:internal/test_runner/test:1:1)' },
      },
    }),
    ev({ t: 'fail', name: 's', nesting: 0, file: '/w/a.test.js', suite: true, error: { message: '1 subtest failed', failureType: 'subtestsFailed' } }),
    ev({ t: 'start', name: 'later', nesting: 0, file: '/w/a.test.js' }),
    ev({ t: 'fail', name: 'later', nesting: 0, file: '/w/a.test.js', todo: true, error: { message: 'not yet' } }),
    ev({ t: 'pass', name: 'ok', nesting: 0, file: '/w/a.test.js' }),
    '{"t":"pass","name":"cut',
  ].join('\n');
  const r = parseNodeEvents(text, '/w');
  assert.deepEqual(r.failures, [{ name: 's > inner', detail: 'Error: boom\n    at x (./a.js:1:1)' }]);
  assert.equal(r.passed, 1);
});

test('formatTestRun caps its text', () => {
  const text = formatTestRun({
    passed: 0,
    failed: 100,
    failures: Array.from({ length: 100 }, (_, i) => `t${i}`),
    details: Array.from({ length: 100 }, () => 'e'.repeat(500)),
    output: '',
    exitCode: 1,
  });
  assert.ok(Buffer.byteLength(text) <= 8 * 1024);
  assert.match(text, /more failing tests not shown/);
});

test('tests run by plain Node even from an Electron host: ELECTRON_RUN_AS_NODE=1 reaches the test processes', async (t) => {
  // In VS Code's extension host process.execPath is Electron, which only runs a script as Node
  // with ELECTRON_RUN_AS_NODE=1; the variable must reach the child and its test processes.
  const dir = await ws(t, {
    'test/env.test.js': `'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
test('runs as node', () => assert.equal(process.env.ELECTRON_RUN_AS_NODE, '1'));
`,
  });
  const saved = process.env.ELECTRON_RUN_AS_NODE;
  delete process.env.ELECTRON_RUN_AS_NODE;
  t.after(() => {
    if (saved !== undefined) process.env.ELECTRON_RUN_AS_NODE = saved;
  });
  const r = await runNodeTests(dir);
  assert.deepEqual([r.passed, r.failed], [1, 0], r.failures.join(', '));
});
