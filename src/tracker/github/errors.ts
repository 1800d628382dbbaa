/**
 * What can stop a run filing into GitHub, each with what to do. All are ServiceStopErrors: the
 * run stops with the filing's attempt marker saved and no result, and the resumed run's lookup
 * asks GitHub whether the issue was filed before filing it again.
 */
import { ServiceStopError } from '../../core/errors';

abstract class GitHubError extends ServiceStopError {
  readonly service: string;
  constructor(
    readonly repo: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.service = `GitHub (github:${repo})`;
  }
}

/** No token (CLI: GITHUB_TOKEN; editor: not signed in), or GitHub refused it (401). */
export class GitHubAuthError extends GitHubError {
  readonly code = 'github-auth';
  constructor(repo: string, why: 'missing' | 'rejected') {
    super(
      repo,
      why === 'missing'
        ? `No GitHub token to file issues in ${repo}: set GITHUB_TOKEN (a token with the repo scope, or issues: write on that repository), or in the editor sign in to GitHub when asked. Then run the same command again; the run resumes where it stopped.`
        : `GitHub rejected the token (401 Bad credentials) for ${repo}: it is wrong, expired or revoked. Set GITHUB_TOKEN to a valid token (or sign in to GitHub again in the editor), then resume the run.`,
      why === 'rejected' ? 401 : undefined,
    );
  }
}

/**
 * 403 (no permission, issues disabled) or 404 (no such repository, or the token cannot see it).
 * `what`: what was refused, an issue (the default) or a pull request (its permissions differ).
 */
export class GitHubAccessError extends GitHubError {
  readonly code = 'github-access';
  constructor(repo: string, status: number, detail: string, what: 'issue' | 'pull-request' = 'issue') {
    super(
      repo,
      status === 403 && what === 'pull-request'
        ? `GitHub answered 403 for ${repo}: the token may not open pull requests there (a fine-grained token or a GitHub App needs "Pull requests: write" and "Contents: write" on the repository; a classic token the repo scope). Set GITHUB_TOKEN to a token with those permissions, then run the same command again: the run resumes where it stopped, and a branch already pushed is not pushed again. (${detail})`
        : status === 404
          ? `GitHub answered 404 for ${repo}: the repository does not exist, or the token cannot see it (a private repository needs the repo scope). Check --tracker github:OWNER/REPO and the token, then resume the run. (${detail})`
          : status === 410
            ? `Issues are disabled in ${repo} (GitHub answered 410); enable them in the repository's settings or pick another tracker, then resume the run.`
            : `GitHub answered ${status} for ${repo}: the token may not file issues there (it needs the repo scope, or issues: write). Use a token with that permission, then resume the run. (${detail})`,
      status,
    );
  }
}

/** Rate limited for longer than a call waits. */
export class GitHubRateLimitError extends GitHubError {
  readonly code = 'github-rate-limit';
  constructor(
    repo: string,
    readonly retryAt: Date,
    status: number,
  ) {
    super(
      repo,
      `GitHub's rate limit for this token is used up (${status}); it resets at ${retryAt.toISOString()}. Resume the run after that; nothing was filed by the call that was refused.`,
      status,
    );
  }
}

/** GitHub did not answer, or answered 5xx: a filing may or may not have happened. */
export class GitHubUnavailableError extends GitHubError {
  readonly code = 'github-unavailable';
  constructor(repo: string, detail: string, status?: number) {
    super(
      repo,
      `GitHub is not answering for ${repo} (${detail}). The run stopped before saving the call's result; resume it when GitHub is back: it first looks for an issue it may have filed (by its hidden marker) and files nothing twice.`,
      status,
    );
  }
}
