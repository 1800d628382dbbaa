/**
 * GitHub Issues as the tracker, through @octokit/rest. GitHub has no idempotency keys, so a
 * filing carries the call's key in a hidden marker (marker.ts) and our label; finding a filing
 * again lists the repository's issues with that label and state=all (the REST list, which is
 * consistent with the writes before it; never the search API, which lags), and matches the
 * marker. The tracker declares it does not honour keys, so issue_file is not keyed here: a
 * marked call goes to this lookup, never to a blind rerun.
 *
 * Errors are typed (errors.ts): no token or 401, 403/404/410, a rate limit (a wait of up to a
 * minute, as GitHub's retry-after or reset says, is waited out; longer stops the run), GitHub
 * down. Each request sends the token and a User-Agent, and times out after 30 s.
 */
import type { Octokit } from '@octokit/rest';
import { BadInputError } from '../../core/errors';
import type { Filed, Tracker } from '../tracker';
import type { FileOptions, IssueFilter, NewIssue, TrackerIssue } from '../store';
import { GitHubAccessError, GitHubAuthError, GitHubRateLimitError, GitHubUnavailableError } from './errors';
import { LABEL, readMarker, withMarker } from './marker';
import { githubIssueWebUrl } from './spec';

export const USER_AGENT = 'durable-triage/0.1';
const TIMEOUT_MS = 30_000;
/** The longest rate-limit wait a call sits out before stopping the run instead. */
export const MAX_RATE_WAIT_MS = 60_000;
const MAX_TRIES = 3;

export interface GitHubTrackerOptions {
  owner: string;
  repo: string;
  /** undefined: every request fails with GitHubAuthError (asked for lazily, so a finished run can still be shown). */
  token: string | undefined;
  /** GITHUB_API_URL (may hold a path: /api/v3). */
  apiUrl: string;
  /** Waits (tests shorten it). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  timeoutMs?: number;
}

interface RestIssue {
  number: number;
  title: string;
  body?: string | null;
  state?: string;
  created_at: string;
  pull_request?: unknown;
  html_url?: unknown;
  labels?: (string | { name?: string | null })[];
}

type OctokitModule = typeof import('./octokit-client');
let octokitModule: OctokitModule | undefined;
/** The client, loaded on the first GitHub call (see octokit-client.ts); in a bundle, the file dist/octokit-client.js beside it. */
function loadOctokit(): OctokitModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (octokitModule ??= require('./octokit-client') as OctokitModule);
}

export class GitHubTracker implements Tracker {
  readonly honoursKeys = false;
  readonly name: string;
  private client: Octokit | undefined;
  private readonly repoName: string;

  constructor(private readonly o: GitHubTrackerOptions) {
    this.repoName = `${o.owner}/${o.repo}`;
    this.name = `github:${this.repoName}`;
  }

  /** The REST client (pulls.ts uses it through `call`). */
  get octokit(): Octokit {
    return (this.client ??= new (loadOctokit().Octokit)({
      ...(this.o.token ? { auth: this.o.token } : {}),
      baseUrl: this.o.apiUrl,
      userAgent: USER_AGENT,
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    }));
  }

  keyRetention(): Promise<number> {
    return Promise.reject(new Error('GitHub keeps no idempotency keys'));
  }

  async fileIssue(input: NewIssue, o: FileOptions & { signal?: AbortSignal } = {}): Promise<Filed> {
    const body = withMarker(input.body, {
      cause: input.cause,
      ...(o.key !== undefined ? { key: o.key } : {}),
      ...(o.runId !== undefined ? { runId: o.runId } : {}),
    });
    // Not retried after a failure that may have filed it: the ladder's lookup decides (a rate-limit refusal filed nothing and is retried).
    const res = await this.call('create', o.signal, (request) =>
      this.octokit.rest.issues.create({ owner: this.o.owner, repo: this.o.repo, title: input.title, body, labels: [LABEL], request }),
    );
    return { issue: this.issueOf(res.data as RestIssue)!, replayed: false };
  }

  async byKey(key: string, signal?: AbortSignal): Promise<TrackerIssue | undefined> {
    return (await this.ours(signal)).find((i) => i.key === key);
  }

  async search(f: IssueFilter, signal?: AbortSignal): Promise<TrackerIssue[]> {
    return (await this.ours(signal)).filter((i) => (f.cause === undefined || i.cause === f.cause) && (f.runId === undefined || i.runId === f.runId));
  }

  async get(n: number, signal?: AbortSignal): Promise<TrackerIssue | undefined> {
    try {
      const res = await this.call('get', signal, (request) =>
        this.octokit.rest.issues.get({ owner: this.o.owner, repo: this.o.repo, issue_number: n, request }),
      );
      const d = res.data as RestIssue;
      return d.pull_request ? undefined : this.issueOf(d, true);
    } catch (e) {
      if (e instanceof GitHubAccessError && e.status === 404) {
        // 404 for one issue in a repository we can see: no such issue. A repository we cannot see fails the list too.
        await this.ours(signal);
        return undefined;
      }
      throw e;
    }
  }

  /** Every issue with our label and marker, open and closed, oldest first. */
  private async ours(signal?: AbortSignal): Promise<TrackerIssue[]> {
    const all = await this.call('list', signal, (request) =>
      this.octokit.paginate(this.octokit.rest.issues.listForRepo, {
        owner: this.o.owner,
        repo: this.o.repo,
        labels: LABEL,
        state: 'all',
        per_page: 100,
        sort: 'created',
        direction: 'asc',
        request,
      }),
    );
    return (all as RestIssue[])
      .filter((i) => !i.pull_request)
      .map((i) => this.issueOf(i))
      .filter((i): i is TrackerIssue => i !== undefined);
  }

  private issueOf(d: RestIssue, anyIssue = false): TrackerIssue | undefined {
    const read = readMarker(d.body);
    if (!read && !anyIssue) return undefined;
    const i: TrackerIssue = {
      number: d.number,
      title: d.title,
      body: read ? read.body : (d.body ?? ''),
      cause: read?.marker.cause ?? '',
      createdAt: d.created_at,
    };
    if (read?.marker.key !== undefined) i.key = read.marker.key;
    if (read?.marker.runId !== undefined) i.runId = read.marker.runId;
    if (d.state === 'open' || d.state === 'closed') i.state = d.state;
    i.url = webUrl(d.html_url) ?? githubIssueWebUrl(this.o.apiUrl, this.o.owner, this.o.repo, d.number);
    return i;
  }

  /** One API call with the token check, a timeout, the rate-limit waits, and GitHub's errors made typed (pulls.ts makes its calls through it too). */
  async call<T>(
    what: 'create' | 'get' | 'list' | 'create-pull',
    signal: AbortSignal | undefined,
    run: (request: { signal: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    if (!this.o.token) throw new GitHubAuthError(this.repoName, 'missing');
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(this.o.timeoutMs ?? TIMEOUT_MS);
      const s = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        return await run({ signal: s });
      } catch (e) {
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : e;
        const status = statusOf(e);
        if (status === undefined)
          throw new GitHubUnavailableError(this.repoName, timeout.aborted ? `no answer within ${(this.o.timeoutMs ?? TIMEOUT_MS) / 1000} s` : describe(e));
        const wait = rateLimitWait(e, status);
        if (wait !== undefined) {
          if (wait > MAX_RATE_WAIT_MS || attempt >= MAX_TRIES) throw new GitHubRateLimitError(this.repoName, new Date(Date.now() + wait), status);
          await (this.o.sleep ?? sleep)(wait, signal);
          continue;
        }
        if (status === 401) throw new GitHubAuthError(this.repoName, 'rejected');
        if (status === 403 || status === 404 || status === 410)
          throw new GitHubAccessError(this.repoName, status, messageOf(e), what === 'create-pull' ? 'pull-request' : 'issue');
        if (status === 422 && what === 'create')
          throw new BadInputError(`GitHub refused the issue for ${this.repoName} (422 ${messageOf(e)}); nothing was filed.`);
        if (status === 422 && what === 'create-pull')
          throw new BadInputError(`GitHub refused the pull request for ${this.repoName} (422 ${messageOf(e)}${detailsOf(e)}); nothing was opened.`);
        if (status >= 500) throw new GitHubUnavailableError(this.repoName, `${status} ${messageOf(e)}`, status);
        throw new GitHubAccessError(this.repoName, status, messageOf(e));
      }
    }
  }
}

/** GitHub's html_url, when it is an http(s) address (anything else is not shown as a link). */
export function webUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown }).status;
  return typeof s === 'number' && s >= 100 ? s : undefined;
}

function headersOf(e: unknown): Record<string, string | undefined> {
  return ((e as { response?: { headers?: Record<string, string | undefined> } }).response?.headers ?? {}) as Record<string, string | undefined>;
}

function messageOf(e: unknown): string {
  const data = (e as { response?: { data?: { message?: unknown } } }).response?.data;
  return typeof data?.message === 'string' ? data.message : (e as Error).message;
}

/** GitHub's validation errors of a 422 (e.g. "A pull request already exists for o:branch", "No commits between main and branch"). */
function detailsOf(e: unknown): string {
  const errors = (e as { response?: { data?: { errors?: unknown } } }).response?.data?.errors;
  if (!Array.isArray(errors)) return '';
  const said = errors
    .map((x: { message?: unknown; code?: unknown }) => (typeof x?.message === 'string' ? x.message : typeof x?.code === 'string' ? x.code : ''))
    .filter(Boolean);
  return said.length ? `: ${said.join('; ')}` : '';
}

function describe(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}

/** How long GitHub asks us to wait (429, or 403 with retry-after or an exhausted limit), in ms; undefined: not a rate limit. */
export function rateLimitWait(e: unknown, status: number, now = Date.now()): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const h = headersOf(e);
  const retryAfter = Number(h['retry-after']);
  if (h['retry-after'] !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter * 1000);
  if (h['x-ratelimit-remaining'] === '0') {
    const reset = Number(h['x-ratelimit-reset']);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) : 60_000;
  }
  return status === 429 ? 60_000 : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      },
      { once: true },
    );
  });
}
