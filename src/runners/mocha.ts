/**
 * mocha, run directly from the workspace's node_modules with its JSON reporter written to a
 * file (`--reporter json --reporter-option output=F`); the workspace's .mocharc decides the
 * files when none are given. Mocha adds the files given on its command line to its config's
 * `spec`, so to run just the given files a JSON config (.mocharc.json, or package.json's
 * "mocha") is passed on as a copy without its `spec`; a .mocharc.js or .yml is left as it is.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { nodeChildEnv } from './node-child';
import { ToolInputError } from '../workspace/paths';
import { readIfThere, withReportDir, type RunContext } from './context';
import { installedBin, readJson } from './js-bin';
import { notInstalled } from './jest-like';
import { testRun } from './result';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import { trimDetail } from './normalize';
import type { Failure, TestRun } from './types';

export async function runMocha(c: RunContext): Promise<TestRun> {
  const pkg = installedBin(c.root, 'mocha', 'mocha');
  if (!pkg) throw new ToolInputError(notInstalled('mocha'));
  return withReportDir(async (dir) => {
    const report = path.join(dir, 'report.json');
    const config = c.files ? await configWithoutSpec(c.root, dir) : [];
    const args = [pkg.bin, ...config, '--reporter', 'json', '--reporter-option', `output=${report}`, '--no-color', ...(c.files ?? [])];
    const raw = await spawnCapture({
      command: process.execPath,
      args,
      cwd: c.root,
      env: runnerEnv(nodeChildEnv(), c.env),
      timeoutMs: c.timeoutMs,
      ...(c.signal ? { signal: c.signal } : {}),
    });
    const text = await readIfThere(report);
    return testRun('mocha', c.root, raw, text === undefined ? undefined : parseMochaJson(text, c.root), c.timeoutMs);
  });
}

/** `--config COPY --no-package` for a workspace whose mocha config is JSON, the copy without `spec`; else nothing. */
async function configWithoutSpec(root: string, dir: string): Promise<string[]> {
  const rc = readJson(path.join(root, '.mocharc.json'));
  const fromPackage = readJson(path.join(root, 'package.json'))?.mocha;
  const config = rc ?? (fromPackage && typeof fromPackage === 'object' && !Array.isArray(fromPackage) ? (fromPackage as Record<string, unknown>) : undefined);
  if (!config) return [];
  const { spec: _spec, ...rest } = config;
  const copy = path.join(dir, 'mocharc.json');
  await fs.writeFile(copy, JSON.stringify(rest));
  return ['--config', copy, '--no-package'];
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
