/**
 * Turning what a runner reported into a TestRun: failures sorted by name (a runner that runs
 * files in parallel reports them in any order), a timeout or a run that failed without naming
 * a failing test reported as a failure with the output's tail.
 */
import type { Captured } from './spawn-capture';
import type { Failure, TestRun } from './types';
import { lastLines, normalize } from './normalize';

export interface Reported {
  passed: number;
  failures: Failure[];
  /** Failed tests the runner counted, when more than the failures it named (e.g. a cap); default failures.length. */
  failed?: number;
}

export function testRun(label: string, root: string, raw: Captured, reported: Reported | undefined, timeoutMs: number): TestRun {
  const output = normalize(raw.text, root);
  const failures = [...(reported?.failures ?? [])].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0,
  );
  const r: TestRun = {
    passed: reported?.passed ?? 0,
    failed: Math.max(reported?.failed ?? 0, failures.length),
    failures: failures.map((f) => f.name),
    details: failures.map((f) => f.detail),
    output,
    exitCode: raw.exitCode,
  };
  if (raw.timedOut) {
    r.timedOut = true;
    r.failures.push(`timed out after ${Math.round(timeoutMs / 1000)} s`);
    r.details.push(`the test run was stopped; a test may hang (an open handle, a pending promise, an endless loop)\n${lastLines(output, 10)}`);
    r.failed = Math.max(r.failed, 1);
  } else if (r.exitCode !== 0 && r.failures.length === 0) {
    r.failures.push(`${label} exited with code ${r.exitCode}${reported ? '' : ' without a report'}`);
    r.details.push(lastLines(output, 20));
    r.failed = Math.max(r.failed, 1);
  }
  return r;
}
