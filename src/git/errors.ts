/**
 * What can go wrong with git when a run makes a branch, a commit or a push for a cause. Each
 * names the command and what git said, and what to do. A refused push and a taken branch stop
 * the run (ServiceStopError: the call's attempt marker stays saved with no result, and the
 * resumed run's lookup asks again before anything is done twice); nothing is lost either way.
 */
import { ServiceStopError } from '../core/errors';

/** A git command that failed: the command (without secrets: git's own arguments only) and its stderr. */
export class GitError extends ServiceStopError {
  readonly code: string = 'git-failed';
  readonly service = 'git';
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    message?: string,
  ) {
    super(
      message ??
        `git ${command} failed (exit ${exitCode ?? 'signal'}): ${stderr.trim() || 'no message'}. Fix what git says, then run the same command again; the run resumes where it stopped.`,
    );
  }
}

/** The workspace is not in a git repository, or git is not installed. */
export class NotAGitRepositoryError extends GitError {
  override readonly code = 'git-not-a-repository';
  constructor(workspace: string, stderr: string) {
    super(
      'rev-parse --show-toplevel',
      128,
      stderr,
      `--pull-requests needs the workspace in a git repository, and ${workspace} is not in one (${stderr.trim() || 'git not found'}). Run it in a clone of the repository the pull requests are for.`,
    );
  }
}

/** The cause's branch exists already with commits that are not this run's. */
export class BranchTakenError extends GitError {
  override readonly code = 'git-branch-taken';
  constructor(
    readonly branch: string,
    detail: string,
  ) {
    super(
      'worktree add',
      null,
      detail,
      `The branch ${branch} exists already with commits that this run did not make (${detail}). Nothing was changed: rename or delete that branch (git branch -m ${branch} OTHER), then run the same command again.`,
    );
  }
}

/** The remote refused the push (non-fast-forward: the remote branch has other commits; or a protected branch, a hook, no permission). */
export class PushRejectedError extends GitError {
  override readonly code = 'git-push-rejected';
  constructor(
    readonly remote: string,
    readonly branch: string,
    stderr: string,
  ) {
    super(
      `push ${remote} ${branch}`,
      1,
      stderr,
      `The remote ${remote} refused the push of ${branch}: ${refusal(stderr)}. Nothing was pushed and no pull request was opened; the commit stays on the local branch. If the remote's ${branch} has other commits, delete or rename it there; if the remote refuses pushes, give another with --remote NAME; then run the same command again.`,
    );
  }
}

/**
 * What a refused push says, short: the refused refs' reasons (`git push --porcelain`'s "!" lines,
 * e.g. "[remote rejected] (pre-receive hook declined)") and what the remote printed (its
 * "remote:" lines: a hook's or a server's reason); else git's last lines.
 */
function refusal(said: string): string {
  const lines = said.split('\n').map((l) => l.trimEnd());
  const refused = lines.filter((l) => l.startsWith('!\t')).map((l) => (l.split('\t').pop() ?? '').trim());
  const remote = lines
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.slice('remote:'.length).trim())
    .filter(Boolean);
  const parts = [...refused, ...(remote.length ? [`the remote said: ${remote.join(' ')}`] : [])];
  return parts.length ? parts.join('; ') : said.trim().split('\n').slice(-3).join(' ');
}
