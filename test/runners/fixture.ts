/**
 * The runner fixtures (test/fixtures/repos/<runner>): each a small repository with passing
 * tests, a bug and raw crash logs; test/fixtures/failing/<runner> adds a failing test. A test
 * gets a fresh copy in a temp folder; the JavaScript ones get node_modules linked to the runners
 * scripts/setup-test-deps.sh installed in .cache/runners (npm test runs it first).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');
export const RUNNER_MODULES = path.join(ROOT, '.cache', 'runners', 'node_modules');

export const FIXTURE_KINDS = ['vitest', 'jest', 'mocha', 'node', 'pytest', 'go'] as const;
export type FixtureKind = (typeof FIXTURE_KINDS)[number];

const JS: ReadonlySet<string> = new Set(['vitest', 'jest', 'mocha']);

/** A fresh copy of the fixture repository (with the failing test too, when asked), removed after the test. */
export function fixtureRepo(t: TestContext, kind: FixtureKind, o: { failing?: boolean } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `triage-${kind}-`));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(FIXTURES, 'repos', kind), dir, { recursive: true });
  if (o.failing) fs.cpSync(path.join(FIXTURES, 'failing', kind), dir, { recursive: true });
  if (JS.has(kind)) {
    if (!fs.existsSync(path.join(RUNNER_MODULES, kind))) {
      throw new Error(`${kind} is not installed in ${RUNNER_MODULES}; run "npm run setup:test" (scripts/setup-test-deps.sh; npm test runs it)`);
    }
    fs.symlinkSync(RUNNER_MODULES, path.join(dir, 'node_modules'), 'dir');
  }
  return dir;
}
