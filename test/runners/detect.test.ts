import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { detectRunner } from '../../src/runners/detect';
import { testLayout } from '../../src/runners/layout';
import { runWorkspaceTests } from '../../src/runners/run';
import { formatTestRun } from '../../src/tools/run-tests';
import { fixtureRepo, FIXTURE_KINDS } from './fixture';

function ws(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-detect-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

test('the runner is found from package.json, go.mod or Python markers; a configured command wins', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' }, scripts: { test: 'npm run lint && jest' } }) }, 'jest', /jest in devDependencies/],
    [{ 'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }) }, 'vitest', /scripts.test runs vitest/],
    [{ 'package.json': JSON.stringify({ scripts: { test: 'node --test test/' } }) }, 'node', /node --test/],
    [{ 'go.mod': 'module x\n' }, 'go', /go.mod/],
    [{ 'pytest.ini': '[pytest]\n' }, 'pytest', /pytest.ini/],
    [{ 'tests/test_a.py': '' }, 'pytest', /test_\*\.py/],
    [{ 'a.test.js': '' }, 'node', /node --test/],
  ];
  for (const [files, kind, because] of cases) {
    const dir = ws(files);
    try {
      const p = detectRunner(dir);
      assert.equal(p.kind, kind, JSON.stringify(files));
      assert.match(p.because, because);
      assert.deepEqual(detectRunner(dir, 'make check'), { kind: 'command', because: 'the configured test command', command: 'make check' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('the layout names where each fixture keeps its tests, in its language', async (t) => {
  const want: Record<string, [string, string]> = {
    vitest: ['TypeScript', 'test/regression-bad-unit.test.ts'],
    jest: ['JavaScript', 'test/regression-bad-unit.test.js'],
    mocha: ['JavaScript', 'test/regression-bad-unit.spec.js'],
    node: ['JavaScript', 'test/regression-bad-unit.test.js'],
    pytest: ['Python', 'tests/test_regression_bad_unit.py'],
    go: ['Go', 'regression_bad_unit_test.go'],
  };
  for (const kind of FIXTURE_KINDS) {
    const l = await testLayout(fixtureRepo(t, kind));
    assert.deepEqual([l.language, l.regressionTest('bad-unit')], want[kind], kind);
    assert.match(l.describe(), new RegExp(want[kind][0]));
  }
});

test('a configured command reports its exit code and output tail, with no counts', async (t) => {
  const dir = ws({ 'check.sh': 'echo "checking $*"; echo "2 broken" >&2; exit 3\n' });
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'x test.txt'), '');
  const { plan, run } = await runWorkspaceTests(dir, ['x test.txt'], { command: 'sh check.sh' });
  const text = formatTestRun(run, plan);
  assert.match(text, /^tests: failed \(exit code 3; the configured command gives no counts\)\nrunner: sh check.sh/);
  assert.match(text, /FAILED: sh check.sh exited with code 3\n {2}checking x test.txt\n {2}2 broken/);
});

test('a hanging configured command is killed with its whole process group and reported', async (t) => {
  const dir = ws({});
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const { run } = await runWorkspaceTests(dir, undefined, { command: 'sleep 30 & sleep 30; echo never', timeoutMs: 300 });
  assert.equal(run.timedOut, true);
  assert.match(run.failures[0], /timed out/);
});
