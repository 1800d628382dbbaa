import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as path from 'node:path';
import { timedSync } from '../support/timing';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const BIN = path.join(ROOT, 'bin', 'triage.js');

export function triage(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return timedSync('cli process', `triage ${args[0] ?? ''}`, () =>
    spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      input: opts.input ?? '',
      env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ...opts.env },
      timeout: 180_000,
    }),
  );
}

/** The JSON object on the last line of stdout. */
export function lastJson<T = Record<string, unknown>>(out: string): T {
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as T;
}
