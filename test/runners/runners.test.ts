/**
 * Each runner run for real on its fixture repository: its failing and passing tests are counted
 * and the failing one is named by the runner's own title; just the given files run; the text is
 * the same on every run (no durations, no absolute paths).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorkspaceTests } from '../../src/runners/run';
import { formatTestRun } from '../../src/tools/run-tests';
import { fixtureRepo, type FixtureKind } from './fixture';

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
