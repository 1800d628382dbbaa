/**
 * Running git for the branch-per-cause work: `git -C DIR ...` as a child process with no shell,
 * never asking on a terminal (GIT_TERMINAL_PROMPT=0, so a push that needs credentials fails at
 * once instead of hanging the run), in English (LC_ALL=C, so its messages can be read), and with
 * hooks off (core.hooksPath=/dev/null): the files committed are model-written, and a hook of the
 * repository (or one the model could not write, but that reacts to its files) must not run code
 * or change the commit the lookup looks for. The environment is otherwise the user's own: git's
 * credential helpers may need it; git runs no model-written code here.
 */
import { spawn } from 'node:child_process';
import { GitError } from './errors';

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** The options every git command gets before its own arguments. */
export const SAFE_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false'];

export function gitEnv(base: NodeJS.ProcessEnv = process.env, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', LANGUAGE: 'C', ...extra };
  // A parent's GIT_DIR / GIT_WORK_TREE (a git hook running us) would point every command at the wrong repository.
  for (const v of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR']) delete env[v];
  return env;
}

/** Runs git in `dir`; any exit status is returned (the caller decides what a failure means). */
export function runGit(dir: string, args: readonly string[], o: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, '-C', dir, ...args], {
      env: gitEnv(process.env, o.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(o.signal ? { signal: o.signal } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') resolve({ stdout: '', stderr: 'git is not installed (not found on PATH)', exitCode: 127 });
      else reject(e);
    });
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode: code }));
  });
}

/** Runs git and returns its stdout; a non-zero exit throws GitError naming the command and git's stderr. */
export async function git(dir: string, args: readonly string[], o: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const r = await runGit(dir, args, o);
  if (r.exitCode !== 0) throw new GitError(args.join(' '), r.exitCode, r.stderr);
  return r.stdout;
}
