/**
 * Each runner run for real on its fixture repository: its failing and passing tests are counted
 * and the failing one is named by the runner's own title; just the given files run; the text is
 * the same on every run (no durations, no absolute paths).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorkspaceTests } from '../../src/runners/run';
import { formatTestRun } from '../../src/tools/run-tests';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixtureRepo, RUNNER_MODULES, type FixtureKind } from './fixture';

interface Expect {
  failing: string;
  failingTitle: string;
  passing: string;
  passingCount: number;
  message: RegExp;
}

const EXPECT: Record<FixtureKind, Expect> = {
  vitest: {
    failing: 'test/failing.test.ts',
    failingTitle: 'minutes are sixty seconds',
    passing: 'test/duration.test.ts',
    passingCount: 2,
    message: /expected 60000 to be 1000/,
  },
  jest: {
    failing: 'test/failing.test.js',
    failingTitle: 'minutes are sixty seconds',
    passing: 'test/duration.test.js',
    passingCount: 2,
    message: /Expected: 1000[\s\S]*Received: 60000/,
  },
  mocha: {
    failing: 'test/failing.spec.js',
    failingTitle: 'minutes are sixty seconds',
    passing: 'test/duration.spec.js',
    passingCount: 2,
    message: /60000 !== 1000|Expected values to be strictly equal/,
  },
  node: {
    failing: 'test/failing.test.js',
    failingTitle: 'minutes are sixty seconds',
    passing: 'test/duration.test.js',
    passingCount: 2,
    message: /60000 !== 1000|Expected values to be strictly equal/,
  },
  pytest: {
    failing: 'tests/test_failing.py',
    failingTitle: 'tests/test_failing.py::test_minutes_are_sixty_seconds',
    passing: 'tests/test_duration.py',
    passingCount: 2,
    message: /assert 60000 == 1000/,
  },
  go: {
    failing: 'failing_test.go',
    failingTitle: 'TestMinutes',
    passing: 'duration_test.go',
    passingCount: 2,
    message: /ParseDuration\("1m"\) = 60000; want 1000/,
  },
};

for (const kind of Object.keys(EXPECT) as FixtureKind[]) {
  const e = EXPECT[kind];
  test(`${kind}: the fixture's failing and passing tests, run for real`, async (t) => {
    const ws = fixtureRepo(t, kind, { failing: true });
    const all = await runWorkspaceTests(ws, undefined);
    assert.equal(all.plan.kind, kind);
    const text = formatTestRun(all.run, all.plan);
    assert.equal(all.run.passed, e.passingCount, text);
    assert.equal(all.run.failed, 1, text);
    assert.equal(all.run.failures.length, 1, text);
    assert.ok(all.run.failures[0].endsWith(e.failingTitle), `${all.run.failures[0]} names ${e.failingTitle}`);
    assert.match(all.run.details[0], e.message);
    assert.ok(text.startsWith(`tests: ${e.passingCount} passed, 1 failed\n`), text);
    assert.ok(!text.includes(ws), 'no absolute path of the workspace');
    assert.ok(!/\d+(\.\d+)?\s?ms\b|\(\d+\.\d+s\)/.test(text), `no durations:\n${text}`);
    assert.equal(formatTestRun((await runWorkspaceTests(ws, undefined)).run, all.plan), text, 'the same text on every run');

    const one = await runWorkspaceTests(ws, [e.failing]);
    assert.deepEqual([one.run.passed, one.run.failed], [0, 1], formatTestRun(one.run));
    const other = await runWorkspaceTests(ws, [e.passing]);
    assert.deepEqual([other.run.passed, other.run.failed, other.run.exitCode], [e.passingCount, 0, 0], formatTestRun(other.run));
  });
}

test('a monorepo: the files of one package run in that package, with its runner, and the root install found above it', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-mono-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }));
  for (const kind of ['mocha', 'node'] as const) {
    const pkg = path.join(root, 'packages', kind);
    fs.cpSync(fixtureRepo(t, kind, { failing: true }), pkg, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(path.join(pkg, 'node_modules'), { force: true });
  }
  fs.symlinkSync(RUNNER_MODULES, path.join(root, 'node_modules'), 'dir');
  const one = await runWorkspaceTests(root, ['packages/mocha/test/failing.spec.js', 'packages/mocha/test/duration.spec.js']);
  assert.equal(one.plan.kind, 'mocha', 'the package’s runner, not the root’s (which names none)');
  assert.match(one.plan.because, /in the package packages\/mocha$/);
  assert.deepEqual([one.run.passed, one.run.failed], [2, 1], formatTestRun(one.run, one.plan));
  const mixed = await runWorkspaceTests(root, ['packages/node/test/duration.test.js', 'packages/mocha/test/duration.spec.js']);
  assert.equal(mixed.plan.because.includes('in the package'), false, 'files of two packages: the workspace root, as before');
});
