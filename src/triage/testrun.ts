/**
 * Running the bundled samples' tests with node:test (the task checks judge a finished run with
 * it: a regression test must fail before the fix and pass after). The workspace's own runner,
 * for run_tests, is runners/run.ts.
 */
import { runNodeTest, findNodeTestFiles } from '../runners/node-test';
import { checkedTestFile, TEST_TIMEOUT_MS } from '../runners/run';
import type { TestRun, TestRunOptions } from '../runners/types';

export { TEST_TIMEOUT_MS, type TestRun, type TestRunOptions };

/** Test files of a workspace: every *.test.js / .cjs / .mjs outside node_modules and .git, sorted. */
export const findTestFiles = findNodeTestFiles;

/**
 * Runs `files` (workspace-relative; default: every test file) with `node --test`. Throws
 * ToolInputError for a file outside the workspace or missing; rejects with the signal's
 * reason when `signal` aborts (the child is killed).
 */
export async function runNodeTests(workspace: string, files?: string[], signal?: AbortSignal, o: TestRunOptions = {}): Promise<TestRun> {
  const rels = files?.map((f) => checkedTestFile(workspace, f));
  return runNodeTest({ root: workspace, timeoutMs: o.timeoutMs ?? TEST_TIMEOUT_MS, ...(rels ? { files: rels } : {}), ...(signal ? { signal } : {}) });
}
