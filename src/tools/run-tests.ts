/**
 * run_tests {files?}: runs the workspace's tests the way the repository does (its runner:
 * vitest, jest, mocha, node:test, pytest, go test, or a configured command; runners/detect.ts).
 * Read-only as far as the ladder is concerned: a repeat is harmless. The text is the same for
 * the same workspace state (no durations, "." for the workspace root, failures sorted), so a
 * replayed run sees the same result. Running the tests runs the workspace's code: the
 * workspace must be trusted.
 */
import type { Tool } from '../agent/tool';
import { runWorkspaceTests, TEST_TIMEOUT_MS } from '../runners/run';
import type { RunnerPlan } from '../runners/detect';
import type { TestRun } from '../runners/types';
import { z } from 'zod';
import { guarded } from './guarded';
import { plainResult, type ResultLook, type ToolView } from './view';
import type { ToolResult } from '../core/conversation';

export const TEST_OUTPUT_CAP = 8 * 1024;

/** "Run tests: <files>"; its result reads as passed and failed, with each failure (formatTestRun's text, read back). */
export const runTestsView: ToolView = {
  icon: 'beaker',
  call(a) {
    const files = Array.isArray(a.files) ? a.files.filter((f): f is string => typeof f === 'string') : [];
    return { title: files.length ? `Run tests: ${files.join(', ')}` : 'Run the tests', args: [] };
  },
  result: (r) => (r.isError === true ? undefined : testsResult(r)) ?? plainResult(r),
};

const COUNTS = /^tests: (\d+) passed, (\d+) failed/;

function testsResult(r: ToolResult): ResultLook | undefined {
  const m = COUNTS.exec(r.content);
  if (!m) return undefined;
  const failures = r.content
    .split(/\n\nFAILED: /)
    .slice(1)
    .map((chunk) => {
      const [name, ...rest] = chunk.split('\n');
      return {
        name: name.trim(),
        detail: rest
          .map((l) => l.replace(/^ {2}/, ''))
          .join('\n')
          .trim(),
      };
    });
  return {
    summary: `${m[1]} passed, ${m[2]} failed`,
    isError: Number(m[2]) > 0,
    blocks: [{ kind: 'tests', passed: Number(m[1]), failed: Number(m[2]), failures }],
  };
}

const RUN_TESTS_ARGS = z.strictObject({
  files: z.array(z.string()).describe('Test files relative to the workspace root; default: every test').nullish(),
});

export function runTestsTool(o: { command?: string } = {}): Tool<{ files?: string[] | null }> {
  return {
    name: 'run_tests',
    description: `Runs the workspace's tests with its own test runner (all of them, or the test files given) and reports how many passed and failed, with each failing test's name and error. Stops after ${TEST_TIMEOUT_MS / 1000} s.`,
    args: RUN_TESTS_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('run_tests', ctx.workspace, async () => {
        const { plan, run } = await runWorkspaceTests(ctx.workspace, args.files ?? undefined, {
          ...(o.command ? { command: o.command } : {}),
          ...(ctx.testEnv ? { env: ctx.testEnv } : {}),
          signal: ctx.signal,
        });
        return { content: formatTestRun(run, plan) };
      }),
  };
}

/** "tests: N passed, M failed", the runner, then each failure with its trimmed details; at most TEST_OUTPUT_CAP bytes. */
export function formatTestRun(r: TestRun, plan?: RunnerPlan): string {
  let text = r.uncounted
    ? `tests: ${r.exitCode === 0 ? 'passed' : r.timedOut ? 'timed out' : 'failed'} (exit code ${r.exitCode}; the configured command gives no counts)`
    : `tests: ${r.passed} passed, ${r.failed} failed`;
  if (r.output === 'no test files found') text += ' (no test files found)';
  if (plan) text += `\nrunner: ${plan.kind === 'command' ? plan.command : plan.kind} (${plan.because})`;
  for (let i = 0; i < r.failures.length; i++) {
    const detail = r.details[i]?.trim();
    const block = `\n\nFAILED: ${r.failures[i]}${detail ? `\n${indent(detail)}` : ''}`;
    if (Buffer.byteLength(text + block) > TEST_OUTPUT_CAP - 200) {
      if (i === 0) text += `${block.slice(0, TEST_OUTPUT_CAP - 400 - text.length)}\n  ... [cut]`;
      const rest = r.failures.length - (i === 0 ? 1 : i);
      if (rest > 0) text += `\n\n... ${rest} more failing tests not shown (output capped at ${TEST_OUTPUT_CAP} bytes); run fewer files to see them`;
      break;
    }
    text += block;
  }
  return text;
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
