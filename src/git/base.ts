/**
 * Where a run's branches start: the repository the workspace is in, the workspace's folder inside
 * it, and the base branch (the user's choice, default the branch checked out now) with its commit.
 * Resolved once, when the run starts, and saved with the run, so a resumed run branches from the
 * same commit even if the user's checkout moved on. The user's checkout is only read.
 */
import * as path from 'node:path';
import { BadInputError } from '../core/errors';
import { NotAGitRepositoryError } from './errors';
import { git, runGit } from './run-git';

export interface BranchBase {
  /** The repository's top folder (the user's checkout). */
  repoRoot: string;
  /** The workspace's folder inside the repository ("" at the top, else "a/b/" as git says it). */
  prefix: string;
  /** The base branch's name, e.g. "main". */
  base: string;
  /** The base branch's commit when the run started. */
  baseSha: string;
}

export async function resolveBase(workspace: string, base: string | undefined, signal?: AbortSignal): Promise<BranchBase> {
  const top = await runGit(workspace, ['rev-parse', '--show-toplevel'], signal ? { signal } : {});
  if (top.exitCode !== 0) throw new NotAGitRepositoryError(workspace, top.stderr);
  const repoRoot = path.resolve(top.stdout.trim());
  const prefix = (await git(workspace, ['rev-parse', '--show-prefix'])).trim();
  let name = base?.trim();
  if (!name) {
    const head = await runGit(repoRoot, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
    if (head.exitCode !== 0)
      throw new BadInputError(`The checkout in ${repoRoot} is on no branch (a detached HEAD): name the branch the pull requests are for with --base BRANCH.`);
    name = head.stdout.trim();
  }
  const sha = await runGit(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`]);
  if (sha.exitCode !== 0 || !sha.stdout.trim())
    throw new BadInputError(`There is no local branch "${name}" in ${repoRoot} to branch from (--base): name an existing branch, e.g. main.`);
  return { repoRoot, prefix, base: name, baseSha: sha.stdout.trim() };
}
