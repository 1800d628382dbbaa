/**
 * Where a workspace keeps its tests and in which language, read off its runner and its existing
 * test files: what the crash-folder prompt tells the model instead of a fixed path.
 */
import * as path from 'node:path';
import { walkFiles } from '../workspace/walk';
import { detectRunner, type RunnerPlan } from './detect';
import type { RunnerKind } from './types';

export interface TestLayout {
  plan: RunnerPlan;
  language: string;
  /** Up to three existing test files, sorted. */
  examples: string[];
  /** The regression test's path for a cause, in the workspace's style (Go: in the package folder of the fix). */
  regressionTest(cause: string): string;
  /** One paragraph for the prompt. */
  describe(): string;
}

const PATTERNS: Record<Exclude<RunnerKind, 'command'>, RegExp> = {
  vitest: /\.(test|spec)\.[cm]?[jt]sx?$/,
  jest: /\.(test|spec)\.[cm]?[jt]sx?$/,
  mocha: /(^|\/)test\/.*\.[cm]?[jt]s$|\.(test|spec)\.[cm]?[jt]s$/,
  node: /\.test\.[cm]?js$/,
  pytest: /(^|\/)test_[^/]*\.py$|_test\.py$/,
  go: /_test\.go$/,
};

const RUNNER_NAMES: Record<RunnerKind, string> = {
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  node: "Node's built-in runner (node:test, node:assert/strict)",
  pytest: 'pytest',
  go: 'go test (package testing)',
  command: 'the configured test command',
};

export async function testLayout(root: string, configured?: string): Promise<TestLayout> {
  const plan = detectRunner(root, configured);
  const files = await walkFiles(root, path.resolve(root));
  const pattern =
    plan.kind === 'command'
      ? new RegExp(
          Object.values(PATTERNS)
            .map((p) => p.source)
            .join('|'),
        )
      : PATTERNS[plan.kind];
  const tests = files.filter((f) => pattern.test(f));
  const examples = pickExamples(tests);
  const first = examples[0];
  const language = languageOf(plan.kind, first);
  const slug = (cause: string): string =>
    cause
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'crash';
  const regressionTest = (cause: string): string => {
    if (plan.kind === 'go') return `${first ? dirOf(first) : '.'}/regression_${slug(cause)}_test.go`.replace(/^\.\//, '');
    if (plan.kind === 'pytest' || first?.endsWith('.py'))
      return join(first ? dirOf(first) : 'tests', /_test\.py$/.test(first ?? '') ? `regression_${slug(cause)}_test.py` : `test_regression_${slug(cause)}.py`);
    const m = first ? /\.(test|spec)(\.[cm]?[jt]sx?)$/.exec(first) : null;
    const suffix = m ? `.${m[1]}${m[2]}` : plan.kind === 'vitest' || plan.kind === 'jest' ? '.test.js' : '.test.js';
    return join(first ? dirOf(first) : 'test', `regression-${cause}${suffix}`);
  };
  return {
    plan,
    language,
    examples,
    regressionTest,
    describe() {
      const where =
        examples.length > 0
          ? ` The existing tests are ${language} files such as ${examples.join(', ')}.`
          : ` No test file exists yet; write ${language} tests.`;
      const go =
        plan.kind === 'go' ? ' Go tests live beside the code they test: put a regression test in the package folder of the code you fix, in that package.' : '';
      return `This repository's tests run with ${RUNNER_NAMES[plan.kind]}${plan.kind === 'command' ? ` (\`${plan.command}\`)` : ''}, found from ${plan.because}.${where}${go} Write each regression test in the same style, at a path like ${regressionTest('<cause>')}, and run it with run_tests.`;
    },
  };
}

/** The test files in the folder that holds the most of them (ties: the first by name), up to three. */
function pickExamples(tests: string[]): string[] {
  if (tests.length === 0) return [];
  const byDir = new Map<string, string[]>();
  for (const t of tests) byDir.set(dirOf(t), [...(byDir.get(dirOf(t)) ?? []), t]);
  const best = [...byDir.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0][1];
  return best
    .filter((t) => !/regression/.test(t))
    .concat(best.filter((t) => /regression/.test(t)))
    .slice(0, 3);
}

function languageOf(kind: RunnerKind, example: string | undefined): string {
  if (kind === 'go' || example?.endsWith('.go')) return 'Go';
  if (kind === 'pytest' || example?.endsWith('.py')) return 'Python';
  if (example && /\.[cm]?tsx?$/.test(example)) return 'TypeScript';
  return 'JavaScript';
}

function dirOf(rel: string): string {
  return path.posix.dirname(rel);
}

function join(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}
