/**
 * Starting a test runner as a child process: in its own process group (so a hanging run is
 * killed with everything it started), with a time limit, a cap on the output kept, and the
 * run's cancellation signal. Used by every runner. The child never sees this process's secrets
 * (child-env.ts), whatever environment it is given.
 */
import { spawn } from 'node:child_process';
import { withoutSecrets } from './child-env';

/** How much of the child's output is kept (the rest is dropped, with a note). */
export const OUTPUT_CAP = 256 * 1024;

export interface Captured {
  text: string;
  exitCode: number;
  timedOut: boolean;
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Run through the shell (a configured test command). */
  shell?: boolean;
}

/** Runs the child to its end (or its time limit); rejects with the signal's reason when `signal` aborts (the group is killed). */
export function spawnCapture(s: SpawnSpec): Promise<Captured> {
  s.signal?.throwIfAborted();
  return new Promise<Captured>((resolve, reject) => {
    const child = spawn(s.command, s.args, { cwd: s.cwd, env: withoutSecrets(s.env), stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', shell: s.shell ?? false });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (b: Buffer): void => {
      if (size < OUTPUT_CAP) chunks.push(b);
      size += b.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, s.timeoutMs);
    const onAbort = (): void => kill();
    s.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      s.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('close', (code) => {
      done();
      // The runner may have left children in its group (a worker pool, a server a test started).
      if (!timedOut) kill();
      if (s.signal?.aborted) return reject(s.signal.reason instanceof Error ? s.signal.reason : new Error('the test run was cancelled'));
      let text = Buffer.concat(chunks).toString('utf8');
      if (size > OUTPUT_CAP) text = text.slice(0, OUTPUT_CAP) + `\n[output cut: ${size} bytes in all]\n`;
      resolve({ text, exitCode: code ?? -1, timedOut });
    });
  });
}
