/**
 * What a test run reports, whichever runner ran it: counts, each failing test by the runner's
 * own title with its message, and the normalized output (no durations, "." for the workspace).
 */

export const RUNNER_KINDS = ['vitest', 'jest', 'mocha', 'node', 'pytest', 'go', 'command'] as const;
export type RunnerKind = (typeof RUNNER_KINDS)[number];

export interface TestRun {
  passed: number;
  failed: number;
  /** Names of the failing tests, by the runner's own title (a file that failed to load is named by its path). */
  failures: string[];
  /** For each failure, in the same order: its message and the stack frames inside the workspace, trimmed. */
  details: string[];
  /** The runner's output, normalized (no durations, no colours, "." for the workspace root); capped. */
  output: string;
  /** The child's exit code; -1 when it was killed (timeout). */
  exitCode: number;
  timedOut?: boolean;
  /** The configured command gives no structured results: the counts are unknown. */
  uncounted?: boolean;
}

export interface TestRunOptions {
  timeoutMs?: number;
}

/** One failing test, before sorting. */
export interface Failure {
  name: string;
  detail: string;
}
