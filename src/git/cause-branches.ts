/**
 * One branch and one git worktree per cause (crash group): `triage/<cause>-<short run id>`,
 * checked out in `<worktrees>/<runId>/<cause>`, from the run's base commit (base.ts). The user's
 * checkout is never checked out, reset or written: a worktree has its own files and index, so
 * a dirty checkout does not matter. Making a worktree again is safe: an existing one of the
 * branch is used; a branch that exists already is used only when every commit on it since the
 * base is this run's (its `Triage-Run` trailer), else BranchTakenError and nothing changes.
 *
 * The commit of a cause's test and fix carries the call's idempotency key as a trailer
 * (`Triage-Key: <key>`), so the ladder's lookup finds it on the branch after a crash.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { BranchBase } from './base';
import { BranchTakenError, GitError, PushRejectedError } from './errors';
import { git, gitEnv, runGit, SAFE_CONFIG } from './run-git';

export const KEY_TRAILER = 'Triage-Key';
export const RUN_TRAILER = 'Triage-Run';
export const CAUSE_TRAILER = 'Triage-Cause';

/** Who commits when the repository names nobody (no user.email in any git config). */
const FALLBACK_IDENTITY = { name: 'Durable Triage', email: 'durable-triage@localhost' };

/**
 * Makes a cause's worktree ready for the repository's tests (src/deps/prepare.ts), before the
 * first tool acts in it: called once per worktree and process (`made`: git just made it). Gives
 * the tests' environment there, and the pathspecs of what it made that are never committed.
 */
export type WorktreeSetup = (w: {
  cause: string;
  dir: string;
  made: boolean;
  signal?: AbortSignal;
  /** Says what the setup is doing (an install can take minutes). */
  progress?: (text: string) => void;
}) => Promise<{ env: Record<string, string>; exclude: string[] }>;

export interface CauseBranchesOptions extends BranchBase {
  runId: string;
  /** The folder the run's worktrees go in (its own folder per run is made inside). */
  worktreesDir: string;
  setup?: WorktreeSetup;
}

export class CauseBranches {
  private readonly ready = new Map<string, Promise<{ env: Record<string, string>; exclude: string[] }>>();

  constructor(readonly o: CauseBranchesOptions) {}

  /** "triage/<cause>-<the run ID's last part>"; characters a branch name cannot hold become "-". */
  branch(cause: string): string {
    const slug =
      cause
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/\.{2,}/g, '.')
        .replace(/^[-.]+|[-.]+$/g, '') || 'cause';
    const short = this.o.runId.split('-').pop() ?? this.o.runId;
    return `triage/${slug}-${short}`;
  }

  /** The cause's worktree (the repository's top). */
  worktree(cause: string): string {
    return path.join(this.o.worktreesDir, this.o.runId, this.branch(cause).slice('triage/'.length));
  }

  /** The workspace's folder inside the cause's worktree, made (or found again) first: where the cause's file tools act. */
  async workspaceOf(cause: string, signal?: AbortSignal, progress?: (text: string) => void): Promise<string> {
    const dir = await this.readyWorktree(cause, signal, progress);
    return this.o.prefix ? path.join(dir, this.o.prefix) : dir;
  }

  /** The environment the cause's tests get in its worktree (its setup's), once the worktree is ready; {} without a setup. */
  async testEnvOf(cause: string, signal?: AbortSignal): Promise<Record<string, string>> {
    await this.readyWorktree(cause, signal);
    return (await this.ready.get(cause))?.env ?? {};
  }

  /** The cause's worktree, made and set up (once per process: a failed setup is tried again on the next call). */
  async readyWorktree(cause: string, signal?: AbortSignal, progress?: (text: string) => void): Promise<string> {
    const { dir, made } = await this.makeWorktree(cause, signal);
    const setup = this.o.setup;
    if (!setup) return dir;
    let p = made ? undefined : this.ready.get(cause);
    if (!p) {
      p = setup({ cause, dir, made, ...(signal ? { signal } : {}), ...(progress ? { progress } : {}) });
      this.ready.set(cause, p);
      p.catch(() => this.ready.delete(cause));
    }
    await p;
    return dir;
  }

  async ensureWorktree(cause: string, signal?: AbortSignal): Promise<string> {
    return (await this.makeWorktree(cause, signal)).dir;
  }

  private async makeWorktree(cause: string, signal?: AbortSignal): Promise<{ dir: string; made: boolean }> {
    const s = signal ? { signal } : {};
    const dir = this.worktree(cause);
    const branch = this.branch(cause);
    if (fs.existsSync(path.join(dir, '.git'))) {
      const head = await runGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'], s);
      if (head.exitCode === 0 && head.stdout.trim() === branch) return { dir, made: false };
      throw new GitError('worktree add', null, `${dir} exists but is not the worktree of ${branch}`);
    }
    const root = this.o.repoRoot;
    await git(root, ['worktree', 'prune'], s); // a worktree whose folder a crash left unmade is forgotten
    if (await this.branchExists(branch)) {
      await this.assertOurs(branch);
      await fs.promises.mkdir(path.dirname(dir), { recursive: true });
      await git(root, ['worktree', 'add', '--quiet', dir, branch], s);
    } else {
      await fs.promises.mkdir(path.dirname(dir), { recursive: true });
      await git(root, ['worktree', 'add', '--quiet', '-b', branch, dir, this.o.baseSha], s);
    }
    return { dir, made: true };
  }

  private async branchExists(branch: string): Promise<boolean> {
    const r = await runGit(this.o.repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
    return r.exitCode === 0;
  }

  /** A branch already there is ours only when it holds the base and every commit since is this run's. */
  private async assertOurs(branch: string): Promise<void> {
    const root = this.o.repoRoot;
    const holdsBase = await runGit(root, ['merge-base', '--is-ancestor', this.o.baseSha, `refs/heads/${branch}`]);
    if (holdsBase.exitCode !== 0) throw new BranchTakenError(branch, `it does not contain the base ${this.o.base} (${this.o.baseSha.slice(0, 12)})`);
    const log = await git(root, ['log', '--format=%H%x00%(trailers:key=' + RUN_TRAILER + ',valueonly)%x1e', `${this.o.baseSha}..refs/heads/${branch}`]);
    for (const rec of log
      .split('\x1e')
      .map((r) => r.trim())
      .filter(Boolean)) {
      const [sha, run] = rec.split('\x00');
      if (run?.trim() !== this.o.runId) throw new BranchTakenError(branch, `commit ${sha.slice(0, 12)} is not this run's`);
    }
  }

  /** The commit on the cause's branch that carries `key`, or undefined when there is certainly none; git failing throws. */
  async findCommit(cause: string, key: string, signal?: AbortSignal): Promise<string | undefined> {
    const branch = this.branch(cause);
    if (!(await this.branchExists(branch))) return undefined;
    const out = await git(
      this.o.repoRoot,
      ['log', '--format=%H', '--fixed-strings', `--grep=${KEY_TRAILER}: ${key}`, `${this.o.baseSha}..refs/heads/${branch}`],
      signal ? { signal } : {},
    );
    return out
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim();
  }

  /**
   * Commits everything changed in the cause's worktree (its test and fix) with the message and the
   * trailers of the key, the run and the cause; the commit's SHA. Nothing changed: undefined, nothing committed.
   */
  async commitAll(cause: string, message: string, key: string, signal?: AbortSignal): Promise<string | undefined> {
    const s = signal ? { signal } : {};
    const dir = await this.readyWorktree(cause, signal);
    const exclude = (await this.ready.get(cause))?.exclude ?? [];
    await git(dir, ['add', '--all', '--', '.', ...exclude.map((e) => `:(exclude,glob)${e}`)], s);
    const staged = await runGit(dir, ['diff', '--cached', '--quiet'], s);
    if (staged.exitCode === 0) return undefined;
    if (staged.exitCode !== 1) throw new GitError('diff --cached --quiet', staged.exitCode, staged.stderr);
    const trailers = `${KEY_TRAILER}: ${key}\n${RUN_TRAILER}: ${this.o.runId}\n${CAUSE_TRAILER}: ${cause}`;
    const who = await runGit(dir, ['config', 'user.email']);
    const env = who.exitCode === 0 && who.stdout.trim() !== '' ? {} : identityEnv();
    await git(dir, ['commit', '--quiet', '--no-verify', '-m', message.trim(), '-m', trailers], { ...s, env });
    return (await git(dir, ['rev-parse', 'HEAD'], s)).trim();
  }

  /** The cause's branch's commit, or undefined when there is no branch. */
  async tip(cause: string): Promise<string | undefined> {
    const r = await runGit(this.o.repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${this.branch(cause)}`]);
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  }

  /**
   * Pushes the cause's branch to `remote` under the same name, never forced: pushing the commit
   * the remote has already is a no-op (so a repeat is harmless); a remote branch with other
   * commits, or a remote that refuses, is PushRejectedError and nothing is pushed.
   */
  async push(cause: string, remote: string, signal?: AbortSignal): Promise<void> {
    const branch = this.branch(cause);
    const r = await runGit(
      this.o.repoRoot,
      ['push', '--porcelain', '--no-verify', remote, `refs/heads/${branch}:refs/heads/${branch}`],
      signal ? { signal } : {},
    );
    if (r.exitCode === 0) return;
    const said = `${r.stderr}\n${r.stdout}`;
    if (/\[rejected\]|\[remote rejected\]|\bnon-fast-forward\b|\bfetch first\b|!\s+refs\/heads/.test(said)) throw new PushRejectedError(remote, branch, said);
    throw new GitError(`push ${remote} ${branch}`, r.exitCode, said);
  }

  /** What the cause's branch changes against the base (a stat, then the diff, cut at `max` characters): for a person approving its pull request. */
  diffText(cause: string, max = 20_000): string {
    const range = `${this.o.baseSha}...refs/heads/${this.branch(cause)}`;
    const run = (args: string[]): string => {
      const r = spawnSync('git', [...SAFE_CONFIG, '-C', this.o.repoRoot, ...args], { env: gitEnv(), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      return r.status === 0 ? r.stdout : `(git ${args.join(' ')} failed: ${(r.stderr || String(r.error ?? '')).trim()})`;
    };
    const text = `${run(['diff', '--stat', range])}\n${run(['diff', range])}`;
    return text.length > max ? `${text.slice(0, max)}\n... (${text.length - max} more characters; see git diff ${range})` : text;
  }
}

function identityEnv(): NodeJS.ProcessEnv {
  const { name, email } = FALLBACK_IDENTITY;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}
