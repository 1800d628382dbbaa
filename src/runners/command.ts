/**
 * A configured test command (`--test-command`, setting durableTriage.testCommand), run through
 * the shell in the workspace, with the given files appended (shell-quoted). It gives no
 * structured results: the report is its exit code and the output's tail.
 */
import type { RunContext } from './context';
import { lastLines, normalize } from './normalize';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import type { TestRun } from './types';

export async function runCommand(command: string, c: RunContext): Promise<TestRun> {
  const line = [command, ...(c.files ?? []).map(shellQuote)].join(' ');
  const raw = await spawnCapture({
    command: line,
    args: [],
    shell: true,
    cwd: c.root,
    env: runnerEnv(process.env, c.env),
    timeoutMs: c.timeoutMs,
    ...(c.signal ? { signal: c.signal } : {}),
  });
  const output = normalize(raw.text, c.root);
  const r: TestRun = { passed: 0, failed: 0, failures: [], details: [], output, exitCode: raw.exitCode, uncounted: true };
  if (raw.timedOut) {
    r.timedOut = true;
    r.failures.push(`timed out after ${Math.round(c.timeoutMs / 1000)} s`);
    r.details.push(lastLines(output, 20));
  } else if (raw.exitCode !== 0) {
    r.failures.push(`${command} exited with code ${raw.exitCode}`);
    r.details.push(lastLines(output, 40));
  }
  return r;
}

export function shellQuote(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
