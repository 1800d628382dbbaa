/**
 * pytest, asked for its JUnit XML report (`--junitxml=F -o junit_family=xunit1`, whose cases
 * carry their file), without its cache folder (nothing written into the workspace). Run as
 * `pytest` from the PATH, else `python3 -m pytest`. Each failing test is named by its node ID
 * (tests/test_calc.py::test_divide), as pytest names it.
 */
import * as path from 'node:path';
import { ToolInputError } from '../workspace/paths';
import { readIfThere, withReportDir, type RunContext } from './context';
import { parseJUnit } from './junit-xml';
import { testRun } from './result';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import { trimDetail } from './normalize';
import { onPath } from './which';
import type { Failure, TestRun } from './types';

export async function runPytest(c: RunContext): Promise<TestRun> {
  const venv = c.env?.VIRTUAL_ENV;
  const exe = venv
    ? { command: path.join(venv, 'bin', 'python'), pre: ['-m', 'pytest'] }
    : onPath('pytest')
      ? { command: 'pytest', pre: [] as string[] }
      : onPath('python3')
        ? { command: 'python3', pre: ['-m', 'pytest'] }
        : undefined;
  if (!exe)
    throw new ToolInputError(
      "the workspace's tests run with pytest, which is not installed here (neither pytest nor python3 is on the PATH); install it (e.g. apt-get install python3-pytest), or configure the test command",
    );
  return withReportDir(async (dir) => {
    const report = path.join(dir, 'junit.xml');
    const args = [...exe.pre, '-q', '-p', 'no:cacheprovider', '--color=no', `--junitxml=${report}`, '-o', 'junit_family=xunit1', ...(c.files ?? [])];
    const env = { ...runnerEnv(process.env, c.env), PYTHONDONTWRITEBYTECODE: '1' };
    const raw = await spawnCapture({ command: exe.command, args, cwd: c.root, env, timeoutMs: c.timeoutMs, ...(c.signal ? { signal: c.signal } : {}) });
    const text = await readIfThere(report);
    // Exit 5: no tests were collected; not a failure of the code.
    const fixed = raw.exitCode === 5 ? { ...raw, exitCode: 0 } : raw;
    return testRun('pytest', c.root, fixed, text === undefined ? undefined : parsePytestJUnit(text, c.root), c.timeoutMs);
  });
}

export function parsePytestJUnit(xml: string, root: string): { passed: number; failures: Failure[] } {
  let passed = 0;
  const failures: Failure[] = [];
  for (const k of parseJUnit(xml)) {
    if (k.outcome === 'passed') passed++;
    if (k.outcome !== 'failed') continue;
    failures.push({ name: nodeId(k.attrs), detail: trimDetail([k.message, k.text].filter((s) => s.trim() !== '').join('\n'), root) });
  }
  return { passed, failures };
}

/** tests/test_calc.py::TestX::test_y from xunit1's file, classname and name. */
function nodeId(a: Record<string, string>): string {
  const name = a.name ?? '?';
  const file = a.file;
  const classname = a.classname ?? '';
  if (!file) return classname ? `${classname}::${name}` : name;
  const modulePath = file.replace(/\.py$/, '').split('/').join('.');
  const cls = classname.startsWith(`${modulePath}.`) ? classname.slice(modulePath.length + 1) : '';
  return [file, ...(cls ? cls.split('.') : []), name].join('::');
}
