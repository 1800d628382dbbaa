// The triage CLI, for asserting on runs, the tracker and checkpoints after a scenario.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths';

const execFileP = promisify(execFile);

/**
 * Runs `node bin/triage.js <args> --json` and returns the JSON object printed on stdout's
 * last line. Throws with the command's output when it fails or prints no JSON.
 */
export async function triageJson<T = unknown>(args: string[]): Promise<T> {
  const cmd = [path.join(REPO_ROOT, 'bin', 'triage.js'), ...args, '--json'];
  let stdout = '';
  let stderr = '';
  try {
    ({ stdout, stderr } = await execFileP(process.execPath, cmd, { cwd: REPO_ROOT, timeout: 60_000 }));
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`triage ${args.join(' ')} failed: ${x.message}\n${x.stdout ?? ''}${x.stderr ?? ''}`);
  }
  const last = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`triage ${args.join(' ')} printed no JSON on its last line:\n${stdout}${stderr}`);
  }
}
