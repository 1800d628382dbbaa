/**
 * Starting a test runner as a child process: in its own process group (so a hanging run is
 * killed with everything it started), with a time limit, a cap on the output kept, and the
 * run's cancellation signal. Used by every runner. The child never sees this process's secrets
 * (child-env.ts), whatever environment it is given.
 *
 * The result comes when the child exits, its time runs out or the signal aborts, whichever is
 * first; then the child's group is killed. A process the tests started outside that group (a
 * `setsid` daemon) may still hold the output pipes open: their output is read for PIPE_GRACE_MS
 * more, then the pipes are closed on our side, so such a process never holds the run up.
 */
import { spawn } from 'node:child_process';
import { withoutSecrets } from './child-env';

/** How much of the child's output is kept (the rest is dropped, with a note). */
export const OUTPUT_CAP = 256 * 1024;

/** How long the output pipes are still read after the child's end when something outside its group holds them. */
export const PIPE_GRACE_MS = 500;

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
    const child = spawn(s.command, s.args, {
      cwd: s.cwd,
      env: withoutSecrets(s.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      shell: s.shell ?? false,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (b: Buffer): void => {
      if (size < OUTPUT_CAP) chunks.push(b);
      size += b.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };

    let settled = false;
    let ending = false;
    let timedOut = false;
    let exitCode: number | null = null;
    let openPipes = 2;
    let grace: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      end();
    }, s.timeoutMs);
    const onAbort = (): void => {
      const reason: unknown = s.signal?.reason;
      settle(() => reject(reason instanceof Error ? reason : new Error('the test run was cancelled')));
    };
    s.signal?.addEventListener('abort', onAbort, { once: true });

    /** Stops everything once: the timers, the group (it may hold workers or a server a test started), our side of the pipes. */
    function settle(report: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      s.signal?.removeEventListener('abort', onAbort);
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      report();
    }
    /** The output as read so far, resolved (or rejected, when the signal aborted meanwhile). */
    function finish(): void {
      const heldOpen = openPipes > 0;
      settle(() => {
        if (s.signal?.aborted) return reject(s.signal.reason instanceof Error ? s.signal.reason : new Error('the test run was cancelled'));
        let text = Buffer.concat(chunks).toString('utf8');
        if (size > OUTPUT_CAP) text = text.slice(0, OUTPUT_CAP) + `\n[output cut: ${size} bytes in all]\n`;
        if (heldOpen) text += '\n[output closed: a process the tests started outside their process group still held it open]\n';
        resolve({ text, exitCode: exitCode ?? -1, timedOut });
      });
    }
    /** The child exited or its time ran out: kill its group, then read what is left in the pipes (for a while at most). */
    function end(): void {
      if (ending || settled) return;
      ending = true;
      killGroup();
      if (openPipes === 0) return finish();
      grace = setTimeout(finish, PIPE_GRACE_MS);
    }
    const pipeClosed = (): void => {
      openPipes--;
      if (openPipes === 0 && ending) finish();
    };
    child.stdout.on('close', pipeClosed);
    child.stderr.on('close', pipeClosed);
    child.on('error', (e) => settle(() => reject(e)));
    child.on('exit', (code) => {
      exitCode = code;
      end();
    });
  });
}
