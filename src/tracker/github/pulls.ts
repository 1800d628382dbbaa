/**
 * Pull requests on GitHub, one per cause, exactly once. GitHub takes no idempotency key for
 * creating a pull request, so (as with issues, marker.ts) the body ends with our hidden marker
 * holding the call's key, the cause and the run; finding a pull request again lists the
 * repository's pull requests by head branch with state=all (the REST list, consistent with the
 * writes before it) and matches the marker. Calls go through the tracker's `call` (the token
 * check, time limit, rate-limit waits and typed errors of errors.ts). The head is a branch of
 * the repository itself (OWNER:BRANCH), not of a fork.
 */
import type { GitHubTracker } from './github-tracker';
import { webUrl } from './github-tracker';
import { readMarker, withMarker } from './marker';

export interface PullRequest {
  number: number;
  title: string;
  url: string;
  state: string;
  draft: boolean;
  /** The head branch's name. */
  head: string;
  cause: string;
  key?: string;
  runId?: string;
}

export interface NewPullRequest {
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  cause: string;
  key?: string;
  runId?: string;
}

interface RestPull {
  number: number;
  title: string;
  body?: string | null;
  state?: string;
  draft?: boolean;
  html_url?: unknown;
  head?: { ref?: string };
}

export class GitHubPulls {
  constructor(
    private readonly gh: GitHubTracker,
    readonly owner: string,
    readonly repo: string,
  ) {}

  /** Our pull requests (with the marker) whose head is `branch`, open and closed, oldest first. */
  async byHead(branch: string, signal?: AbortSignal): Promise<PullRequest[]> {
    const all = await this.gh.call('list', signal, (request) =>
      this.gh.octokit.paginate(this.gh.octokit.rest.pulls.list, {
        owner: this.owner,
        repo: this.repo,
        head: `${this.owner}:${branch}`,
        state: 'all',
        per_page: 100,
        sort: 'created',
        direction: 'asc',
        request,
      }),
    );
    return (all as RestPull[]).map((p) => this.pullOf(p)).filter((p): p is PullRequest => p !== undefined && p.head === branch);
  }

  /** Opens the pull request (not retried after a failure that may have opened it: the ladder's lookup decides). */
  async open(p: NewPullRequest, signal?: AbortSignal): Promise<PullRequest> {
    const body = withMarker(p.body, { cause: p.cause, ...(p.key !== undefined ? { key: p.key } : {}), ...(p.runId !== undefined ? { runId: p.runId } : {}) });
    const res = await this.gh.call('create-pull', signal, (request) =>
      this.gh.octokit.rest.pulls.create({ owner: this.owner, repo: this.repo, head: p.branch, base: p.base, title: p.title, body, draft: p.draft, request }),
    );
    const made = this.pullOf(res.data as RestPull);
    if (!made) throw new Error(`GitHub answered the new pull request without its body's marker (#${(res.data as RestPull).number})`);
    return made;
  }

  private pullOf(d: RestPull): PullRequest | undefined {
    const read = readMarker(d.body);
    if (!read) return undefined;
    const p: PullRequest = {
      number: d.number,
      title: d.title,
      url: webUrl(d.html_url) ?? `https://github.com/${this.owner}/${this.repo}/pull/${d.number}`,
      state: d.state ?? 'open',
      draft: d.draft === true,
      head: d.head?.ref ?? '',
      cause: read.marker.cause,
    };
    if (read.marker.key !== undefined) p.key = read.marker.key;
    if (read.marker.runId !== undefined) p.runId = read.marker.runId;
    return p;
  }
}
