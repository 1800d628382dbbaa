/**
 * Removing a cause's worktree once its run is deleted or finished: `git worktree remove --force`
 * run from the repository that made it (found from the worktree's own `.git` file), so git
 * forgets it too; the branch is kept (its commits, and any pull request made of it). What the
 * setup left inside (node_modules, or the symlinks to the checkout's) goes with the folder; a
 * symlink is removed, never what it points at. A worktree whose repository is gone is removed as
 * a plain folder. Beside it, its readiness record and install log are removed too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from './run-git';
import { GitError } from './errors';

/** The repository a worktree belongs to: its `.git` file names "gitdir: <repo>/.git/worktrees/<name>", whose `commondir` names "<repo>/.git". */
function commonDirOf(worktree: string): string | undefined {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(path.join(worktree, '.git'), 'utf8'));
    if (!m) return undefined;
    const gitdir = path.resolve(worktree, m[1]);
    const common = path.resolve(gitdir, fs.readFileSync(path.join(gitdir, 'commondir'), 'utf8').trim());
    return fs.existsSync(path.join(common, 'HEAD')) ? common : undefined;
  } catch {
    return undefined; // not a worktree's .git file, or its repository is gone
  }
}

/** Removes one worktree folder (and its .ready.json, .ready.json.pid and .install.log beside it); true when there was one. */
export async function removeWorktree(worktree: string, signal?: AbortSignal): Promise<boolean> {
  const existed = fs.existsSync(worktree);
  const common = existed ? commonDirOf(worktree) : undefined;
  if (common) {
    const r = await runGit(common, ['worktree', 'remove', '--force', '--force', worktree], signal ? { signal } : {});
    // git refuses a folder it does not know as a worktree: then it is ours to remove as a folder.
    if (r.exitCode !== 0 && !/is not a working tree|not a working tree/.test(r.stderr)) throw new GitError(`worktree remove ${worktree}`, r.exitCode, r.stderr);
  }
  await fs.promises.rm(worktree, { recursive: true, force: true });
  if (common) await runGit(common, ['worktree', 'prune']);
  for (const f of [`${worktree}.ready.json`, `${worktree}.ready.json.pid`, `${worktree}.install.log`]) await fs.promises.rm(f, { force: true });
  return existed;
}
