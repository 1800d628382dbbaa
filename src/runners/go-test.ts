/**
 * go test, asked for its JSON event stream (`go test -json -count=1`, -count=1 so a cached
 * result never changes the text). All packages (./...) by default; with files, the packages
 * holding them, running only the Test functions those files declare. A package that does not
 * build is a failure named by the package, with the compiler's messages.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ToolInputError } from '../workspace/paths';
import type { RunContext } from './context';
import { testRun } from './result';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import { trimDetail } from './normalize';
import { onPath } from './which';
import type { Failure, TestRun } from './types';

export async function runGoTest(c: RunContext): Promise<TestRun> {
  if (!onPath('go'))
    throw new ToolInputError(
      "the workspace's tests run with go test, but go is not on the PATH; install Go (e.g. apt-get install golang-go), or configure the test command",
    );
  const args = ['test', '-json', '-count=1'];
  if (c.files) {
    const pkgs = [...new Set(c.files.map((f) => `./${path.posix.dirname(f)}`))].sort();
    const names = (await Promise.all(c.files.map((f) => testNames(path.join(c.root, f))))).flat();
    if (names.length > 0) args.push('-run', `^(${[...new Set(names)].sort().join('|')})$`);
    args.push(...pkgs.map((p) => (p === './.' ? '.' : p)));
  } else {
    args.push('./...');
  }
  const raw = await spawnCapture({
    command: 'go',
    args,
    cwd: c.root,
    env: runnerEnv(process.env, c.env),
    timeoutMs: c.timeoutMs,
    ...(c.signal ? { signal: c.signal } : {}),
  });
  return testRun('go test', c.root, raw, parseGoEvents(raw.text, c.root), c.timeoutMs);
}

/** The Test functions a _test.go file declares. */
async function testNames(file: string): Promise<string[]> {
  if (!file.endsWith('_test.go')) throw new ToolInputError(`"${path.basename(file)}" is not a Go test file (name_test.go)`);
  const text = await fs.readFile(file, 'utf8');
  return [...text.matchAll(/^func (Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)/gm)].map((m) => m[1]);
}

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

export function parseGoEvents(text: string, root: string): { passed: number; failures: Failure[] } {
  const outcome = new Map<string, string>();
  const output = new Map<string, string[]>();
  const pkgOutput = new Map<string, string[]>();
  const pkgFailed = new Set<string>();
  const strayLines: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) {
      if (line.trim() !== '') strayLines.push(line);
      continue;
    }
    let e: GoEvent;
    try {
      e = JSON.parse(line) as GoEvent;
    } catch {
      strayLines.push(line);
      continue;
    }
    const pkg = e.Package ?? '';
    if (e.Test) {
      const key = `${pkg}\u0000${e.Test}`;
      if (e.Action === 'output' && e.Output !== undefined) output.set(key, [...(output.get(key) ?? []), e.Output]);
      if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') outcome.set(key, e.Action);
    } else {
      if (e.Action === 'output' && e.Output !== undefined) pkgOutput.set(pkg, [...(pkgOutput.get(pkg) ?? []), e.Output]);
      if (e.Action === 'fail') pkgFailed.add(pkg);
    }
  }
  const keys = [...outcome.keys()];
  const isParent = (k: string): boolean => keys.some((o) => o.startsWith(`${k}/`));
  let passed = 0;
  const failures: Failure[] = [];
  const pkgsWithFailingTest = new Set<string>();
  for (const [key, action] of outcome) {
    if (isParent(key)) continue;
    const [pkg, test] = key.split('\u0000');
    if (action === 'pass') passed++;
    if (action !== 'fail') continue;
    pkgsWithFailingTest.add(pkg);
    const lines = (output.get(key) ?? []).filter((l) => !/^(=== (RUN|PAUSE|CONT)|--- (FAIL|PASS|SKIP))/.test(l.trim()));
    failures.push({ name: test, detail: trimDetail(`${pkg}\n${lines.join('')}`, root) });
  }
  for (const pkg of pkgFailed) {
    if (pkgsWithFailingTest.has(pkg)) continue;
    const lines = (pkgOutput.get(pkg) ?? []).filter((l) => !/^(FAIL|ok)\s/.test(l));
    failures.push({ name: `package ${pkg}`, detail: trimDetail([...strayLines, ...lines].join('\n'), root) });
  }
  return { passed, failures };
}
