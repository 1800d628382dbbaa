/**
 * Running git for the history tools: read-only commands in the workspace, never a pager, a
 * prompt, an external diff or textconv program, colours, an fsmonitor daemon or an optional lock
 * (GIT_OPTIONAL_LOCKS=0: a status-like refresh never writes the index), with the environment a
 * test child gets (child-env.ts: no secrets). The output is capped: the first OUTPUT_CAP bytes
 * come back with a count of what was cut. git saying the folder is not a repository, an unknown
 * revision or a bad range is a ToolInputError with git's own words.
 */
import { spawn } from 'node:child_process';
import { SAFE_CONFIG as GIT_SAFE_CONFIG, gitEnv as baseGitEnv } from '../git/run-git';
import { withoutSecrets } from '../runners/child-env';
import { ToolInputError } from '../workspace/paths';

/** Most bytes of git's output a tool result shows. */
export const OUTPUT_CAP = 50_000;

/** A git command that takes longer is stopped. */
const GIT_TIMEOUT_MS = 60_000;

/** The options every call gets before its subcommand: src/git's (no hooks, no fsmonitor, no signing), and no pager, colour or external diff. */
const SAFE_CONFIG = [
  ...GIT_SAFE_CONFIG,
  '-c', 'core.pager=cat',
  '-c', 'color.ui=never',
  '-c', 'core.quotepath=off',
  '-c', 'diff.external=',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
  '--no-pager',
]; // prettier-ignore

export interface GitOutput {
  /** The first OUTPUT_CAP bytes (cut at a line's end when one is near). */
  text: string;
  /** Bytes and lines not shown. */
  cutBytes: number;
  cutLines: number;
}

/** The environment git runs with: src/git's (no prompt, no parent's GIT_DIR, C locale) less every secret, no pager, no optional locks. */
export function gitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = baseGitEnv(withoutSecrets(base), { GIT_PAGER: 'cat', PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', NO_COLOR: '1' });
  delete env.GIT_EXTERNAL_DIFF;
  return env;
}

/** Runs `git <args>` in `cwd` (see the file comment). */
export function runGit(cwd: string, args: readonly string[], signal: AbortSignal): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd,
      env: gitEnv(process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
      timeout: GIT_TIMEOUT_MS,
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let cutBytes = 0;
    let cutLines = 0;
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      const room = OUTPUT_CAP - keptBytes;
      if (room > 0) {
        kept.push(b.subarray(0, room));
        keptBytes += Math.min(room, b.length);
      }
      const rest = room > 0 ? b.subarray(room) : b;
      cutBytes += rest.length;
      for (const c of rest) if (c === 10) cutLines++;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') reject(new ToolInputError('git is not installed (no "git" on the PATH); the history tools need it'));
      else reject(e);
    });
    child.on('close', (code, sig) => {
      if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (code !== 0) {
        const said = stderr.trim().split('\n').slice(0, 3).join(' ');
        if (/not a git repository/i.test(said)) return reject(new ToolInputError('the workspace is not in a git repository, so it has no history to show'));
        return reject(new ToolInputError(sig ? `git ${args[0]} was stopped (${sig})` : `git ${args[0]} failed: ${said || `exit status ${code}`}`));
      }
      resolve(capped(Buffer.concat(kept), cutBytes, cutLines));
    });
  });
}

/** The kept bytes cut back to the last full line (when the cut fell inside one), the rest counted. */
function capped(bytes: Buffer, cutBytes: number, cutLines: number): GitOutput {
  if (cutBytes === 0) return { text: bytes.toString('utf8'), cutBytes, cutLines };
  const nl = bytes.lastIndexOf(10);
  const keep = nl > 0 ? nl + 1 : bytes.length;
  const dropped = bytes.subarray(keep);
  return { text: bytes.subarray(0, keep).toString('utf8'), cutBytes: cutBytes + dropped.length, cutLines: cutLines + (dropped.length > 0 ? 1 : 0) };
}

/** The output as a tool result's text, with a note of what was cut; `empty` when git printed nothing. */
export function gitResultText(o: GitOutput, empty: string): string {
  const text = o.text.trimEnd();
  if (text === '' && o.cutBytes === 0) return empty;
  return o.cutBytes > 0 ? `${text}\n... [cut: ${o.cutBytes} more bytes (${o.cutLines} lines) not shown; narrow the range or lower max_count]` : text;
}
