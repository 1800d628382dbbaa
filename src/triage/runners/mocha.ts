/**
 * mocha, run directly from the workspace's node_modules with its JSON reporter written to a
 * file (`--reporter json --reporter-option output=F`); the workspace's .mocharc decides the
 * files when none are given.
 */
import * as path from 'node:path';
import { nodeChildEnv } from '../node-child';
import { ToolInputError } from '../paths';
import { readIfThere, withReportDir, type RunContext } from './context';
import { installedBin } from './js-bin';
import { notInstalled } from './jest-like';
import { testRun } from './result';
import { runnerEnv, spawnCapture } from './spawn-capture';
import { trimDetail } from './normalize';
import type { Failure, TestRun } from './types';

export async function runMocha(c: RunContext): Promise<TestRun> {
  const pkg = installedBin(c.root, 'mocha', 'mocha');
  if (!pkg) throw new ToolInputError(notInstalled('mocha'));
  return withReportDir(async (dir) => {
    const report = path.join(dir, 'report.json');
    const args = [pkg.bin, '--reporter', 'json', '--reporter-option', `output=${report}`, '--no-color', ...(c.files ?? [])];
    const raw = await spawnCapture({ command: process.execPath, args, cwd: c.root, env: runnerEnv(nodeChildEnv()), timeoutMs: c.timeoutMs, ...(c.signal ? { signal: c.signal } : {}) });
    const text = await readIfThere(report);
    return testRun('mocha', c.root, raw, text === undefined ? undefined : parseMochaJson(text, c.root), c.timeoutMs);
  });
}

interface MochaJson {
  stats?: { passes?: number; failures?: number };
  failures?: { title?: string; fullTitle?: string; file?: string; err?: { message?: string; stack?: string } }[];
}

export function parseMochaJson(text: string, root: string): { passed: number; failed: number; failures: Failure[] } | undefined {
  let j: MochaJson;
  try {
    j = JSON.parse(text) as MochaJson;
  } catch {
    return undefined;
  }
  const failures = (j.failures ?? []).map((f) => ({
    name: f.fullTitle ?? f.title ?? '?',
    detail: trimDetail(`${f.file ? `${f.file}\n` : ''}${f.err?.stack ?? f.err?.message ?? ''}`, root),
  }));
  return { passed: j.stats?.passes ?? 0, failed: j.stats?.failures ?? failures.length, failures };
}
