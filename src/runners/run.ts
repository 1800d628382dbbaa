/**
 * run_tests' engine: the workspace's runner (detect.ts), on the given files or all of them,
 * within the time limit. A file outside the workspace, or missing, is a ToolInputError.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import type { RunContext } from './context';
import { detectRunner, type RunnerPlan } from './detect';
import { testPackageOf } from './test-package';
import { runCommand } from './command';
import { runGoTest } from './go-test';
import { runJestLike } from './jest-like';
import { runMocha } from './mocha';
import { runNodeTest } from './node-test';
import { runPytest } from './pytest';
import type { TestRun } from './types';

export const TEST_TIMEOUT_MS = 60_000;

export interface RunTestsOptions {
  /** A configured test command (instead of the detected runner). */
  command?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The tests' environment in a cause's worktree (its virtual environment, Go's cache settings). */
  env?: Readonly<Record<string, string>>;
}

export async function runWorkspaceTests(
  workspace: string,
  files: readonly unknown[] | undefined,
  o: RunTestsOptions = {},
): Promise<{ plan: RunnerPlan; run: TestRun }> {
  const inWorkspace = files === undefined ? undefined : files.map((f) => checkedTestFile(workspace, f));
  // A monorepo's package runs its own tests (its runner, its config), unless a command is configured.
  const pkg = inWorkspace && inWorkspace.length > 0 && !o.command ? testPackageOf(workspace, inWorkspace) : '';
  const root = pkg ? path.join(workspace, pkg) : workspace;
  const rels = inWorkspace && pkg ? inWorkspace.map((f) => path.relative(pkg, f).split(path.sep).join('/')) : inWorkspace;
  const detected = detectRunner(root, o.command);
  const plan = pkg ? { ...detected, because: `${detected.because}, in the package ${pkg}` } : detected;
  const c: RunContext = {
    root,
    timeoutMs: o.timeoutMs ?? TEST_TIMEOUT_MS,
    ...(rels ? { files: rels } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.env ? { env: o.env } : {}),
  };
  return { plan, run: await runPlan(plan, c) };
}

export function runPlan(plan: RunnerPlan, c: RunContext): Promise<TestRun> {
  switch (plan.kind) {
    case 'command':
      return runCommand(plan.command!, c);
    case 'vitest':
    case 'jest':
      return runJestLike(plan.kind, c);
    case 'mocha':
      return runMocha(c);
    case 'pytest':
      return runPytest(c);
    case 'go':
      return runGoTest(c);
    case 'node':
      return runNodeTest(c);
  }
}

export function checkedTestFile(root: string, f: unknown): string {
  const abs = resolveInWorkspace(root, f);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new ToolInputError(`test file "${String(f)}" does not exist`);
  }
  if (!st.isFile()) throw new ToolInputError(`"${String(f)}" is not a file; name test files, e.g. "test/x.test.js"`);
  return toRel(root, abs);
}
