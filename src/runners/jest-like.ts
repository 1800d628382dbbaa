/**
 * vitest and jest, run directly from the workspace's node_modules (not through `npm test`,
 * which often lints, builds or needs the network), each asked for its JSON report (the two
 * share jest's format): `vitest run --reporter=json --outputFile=F`, `jest --ci --json --outputFile=F`.
 */
import * as path from 'node:path';
import { nodeChildEnv } from './node-child';
import { ToolInputError } from '../workspace/paths';
import { readIfThere, withReportDir, type RunContext } from './context';
import { installedBin } from './js-bin';
import { testRun } from './result';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import { normalize, trimDetail } from './normalize';
import type { Failure, TestRun } from './types';

export async function runJestLike(kind: 'vitest' | 'jest', c: RunContext): Promise<TestRun> {
  const pkg = installedBin(c.root, kind);
  if (!pkg) throw new ToolInputError(notInstalled(kind));
  return withReportDir(async (dir) => {
    const report = path.join(dir, 'report.json');
    const args =
      kind === 'vitest'
        ? [pkg.bin, 'run', '--reporter=json', `--outputFile=${report}`, ...(c.files ?? [])]
        : [pkg.bin, '--ci', '--json', `--outputFile=${report}`, '--watchman=false', ...(c.files ? ['--runTestsByPath', ...c.files] : [])];
    const raw = await spawnCapture({
      command: process.execPath,
      args,
      cwd: c.root,
      env: runnerEnv(nodeChildEnv(), c.env),
      timeoutMs: c.timeoutMs,
      ...(c.signal ? { signal: c.signal } : {}),
    });
    const text = await readIfThere(report);
    return testRun(kind, c.root, raw, text === undefined ? undefined : parseJestJson(text, c.root), c.timeoutMs);
  });
}

export function notInstalled(pkg: string): string {
  return `the workspace's tests run with ${pkg}, which is not installed here (no node_modules/${pkg}); install the workspace's dependencies (npm install) and run the tests again, or configure the test command (--test-command, setting durableTriage.testCommand)`;
}

interface JestJson {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: {
    name?: string;
    status?: string;
    message?: string;
    testExecError?: { message?: string; stack?: string };
    assertionResults?: { ancestorTitles?: string[]; title?: string; fullName?: string; status?: string; failureMessages?: string[] }[];
  }[];
}

/** Counts and failures from jest's JSON (vitest writes the same shape); a file that failed to load is a failure named by its path. */
export function parseJestJson(text: string, root: string): { passed: number; failed: number; failures: Failure[] } | undefined {
  let j: JestJson;
  try {
    j = JSON.parse(text) as JestJson;
  } catch {
    return undefined;
  }
  const failures: Failure[] = [];
  for (const file of j.testResults ?? []) {
    const rel = file.name ? relPath(root, file.name) : '?';
    const asserts = file.assertionResults ?? [];
    for (const a of asserts) {
      if (a.status !== 'failed') continue;
      const name = [...(a.ancestorTitles ?? []), a.title ?? a.fullName ?? '?'].join(' > ');
      failures.push({ name, detail: trimDetail(`${rel}\n${(a.failureMessages ?? []).join('\n')}`, root) });
    }
    if (file.status === 'failed' && !asserts.some((a) => a.status === 'failed')) {
      const why = file.message || file.testExecError?.stack || file.testExecError?.message || 'the file failed';
      failures.push({ name: rel, detail: trimDetail(why, root) });
    }
  }
  return { passed: j.numPassedTests ?? 0, failed: j.numFailedTests ?? 0, failures };
}

function relPath(root: string, abs: string): string {
  const n = normalize(abs, root);
  return n.startsWith('./') ? n.slice(2) : path.isAbsolute(abs) ? path.relative(root, abs).split(path.sep).join('/') : n;
}
