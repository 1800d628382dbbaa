/**
 * Runs one step of getting a worktree ready (an install, `go list`): a child process in its own
 * process group, with the user's whole environment (a private registry's token included: what it
 * prints goes to the log file and the user's error message, never to the model), its output into
 * a log file and the last 64 KiB kept for the error. Killed with its group on the run's signal or
 * at the time limit.
 */
import * as fs from 'node:fs';
import { spawn } from 'node:child_process';

export interface StepResult {
  exitCode: number;
  /** The output's last 64 KiB. */
  tail: string;
  timedOut: boolean;
  ms: number;
}

const TAIL = 64 * 1024;

export function runStep(s: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  log?: string;
  signal?: AbortSignal;
  /** Told the child's pid once it is started (its process group's, too). */
  onSpawn?: (pid: number) => void;
}): Promise<StepResult> {
  s.signal?.throwIfAborted();
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const log = s.log ? fs.createWriteStream(s.log) : undefined;
    const child = spawn(s.command, s.args, { cwd: s.cwd, env: s.env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    if (child.pid !== undefined) s.onSpawn?.(child.pid);
    let tail = Buffer.alloc(0);
    let timedOut = false;
    const take = (b: Buffer): void => {
      log?.write(b);
      tail = Buffer.concat([tail, b]);
      if (tail.length > TAIL) tail = tail.subarray(tail.length - TAIL);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
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
      log?.end();
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      if (e.code === 'ENOENT') resolve({ exitCode: 127, tail: `${s.command}: command not found`, timedOut: false, ms: performance.now() - t0 });
      else reject(e);
    });
    child.on('close', (code) => {
      done();
      if (s.signal?.aborted) return reject(s.signal.reason);
      resolve({ exitCode: code ?? -1, tail: tail.toString('utf8'), timedOut, ms: performance.now() - t0 });
    });
  });
}
