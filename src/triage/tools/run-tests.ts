/**
 * run_tests {files?}: runs the workspace's tests (node --test). Read-only as far as the
 * ladder is concerned: a repeat is harmless. The text is the same for the same workspace
 * state (no durations, "." for the workspace root), so a replayed run sees the same result.
 */
import type { Tool } from '../../agent/tool';
import { runNodeTests, TEST_TIMEOUT_MS, type TestRun } from '../testrun';
import { z } from 'zod';
import { guarded } from './guarded';

export const TEST_OUTPUT_CAP = 8 * 1024;

export function runTestsTool(): Tool<{ files?: string[] | null }> {
  return {
    name: 'run_tests',
    description: `Runs the workspace's tests with node --test (all *.test.js files, or the files given) and reports how many passed and failed, with each failing test's name and error. Stops after ${TEST_TIMEOUT_MS / 1000} s.`,
    args: z.strictObject({
      files: z.array(z.string()).describe('Test files relative to the workspace root; default: every test file').nullish(),
    }),
    readOnly: true,
    run: (args, ctx) =>
      guarded('run_tests', ctx.workspace, async () => {
        const r = await runNodeTests(ctx.workspace, args.files ?? undefined, ctx.signal);
        return { content: formatTestRun(r) };
      }),
  };
}

/** "tests: N passed, M failed", then each failure with its trimmed details; at most TEST_OUTPUT_CAP bytes. */
export function formatTestRun(r: TestRun): string {
  let text = `tests: ${r.passed} passed, ${r.failed} failed`;
  if (r.output === 'no test files found') text += ' (no test files found)';
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
