/**
 * A local stand-in of the GitHub REST API's issue endpoints on 127.0.0.1, answering with the
 * real API's shapes: the issue and label objects follow @octokit/fixtures' recorded responses
 * (an issue from its paginate-issues scenario, a label from add-labels-to-issue), errors are
 * {message, documentation_url}, lists are paginated with a Link header, and every answer carries
 * the X-RateLimit-* headers. It may sit under a path (GitHub Enterprise's /api/v3).
 *
 *   GET   /repos/:owner/:repo/issues          ?labels=a,b&state=open|closed|all&sort=created&direction=asc|desc&per_page&page
 *   POST  /repos/:owner/:repo/issues          {title, body, labels} -> 201 (unknown labels are created, as GitHub does)
 *   GET   /repos/:owner/:repo/issues/:number
 *   PATCH /repos/:owner/:repo/issues/:number  {state}
 *   GET   /repos/:owner/:repo/pulls           ?head=OWNER:BRANCH&state=open|closed|all&per_page&page
 *   POST  /repos/:owner/:repo/pulls           {title, head, base, body, draft} -> 201; 422 when an open one has that head
 *
 * A pull request is numbered with the issues (as on GitHub) and shows in the issue list with a
 * `pull_request` field. @octokit/fixtures records no pulls scenario, so its JSON follows the
 * REST reference's "Create a pull request" example (the fields a client reads, the same names).
 *
 * As GitHub: no User-Agent -> 403; a wrong token -> 401 "Bad credentials"; no token, or a
 * repository it does not know -> 404 "Not Found". `script` injects answers (a rate limit, a 502,
 * a dropped connection, one after the issue was created) for the next requests.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports -- the recorded GitHub responses are JSON files of @octokit/fixtures */
const FIXTURES = path.dirname(require.resolve('@octokit/fixtures/package.json'));
const ISSUE_TEMPLATE = (
  require(path.join(FIXTURES, 'scenarios/api.github.com/paginate-issues/normalized-fixture.json')) as { response: Record<string, unknown>[] }[]
)[0].response[0];
const LABEL_TEMPLATE = (require(path.join(FIXTURES, 'scenarios/api.github.com/add-labels-to-issue/normalized-fixture.json')) as { response: unknown }[]).find(
  (x) => Array.isArray(x.response),
)!.response as Record<string, unknown>[];

const DOCS = 'https://docs.github.com/rest';

export interface StandinIssue {
  number: number;
  title: string;
  body: string | null;
  labels: string[];
  state: 'open' | 'closed';
  createdAt: string;
  pullRequest?: boolean;
}

export interface StandinPull {
  number: number;
  head: string;
  base: string;
  draft: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** What to do with a matching request instead of answering it. */
export type Scripted =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Close the connection without an answer. */
  | { kind: 'drop' }
  /** Handle the request (a filing happens), then close the connection without the answer. */
  | { kind: 'act-then-drop' };

export interface Standin {
  /** The API base, e.g. http://127.0.0.1:PORT/api/v3 */
  url: string;
  token: string;
  issues(repo: string): StandinIssue[];
  seed(repo: string, issue: Partial<StandinIssue> & { title: string }): StandinIssue;
  /** The pull requests opened (their issue entries hold the title, body and state). */
  pulls(repo: string): (StandinPull & StandinIssue)[];
  requests: SeenRequest[];
  /** The next request matching method (and path pattern) gets this answer. */
  script(method: string, pathPattern: RegExp, answer: Scripted): void;
  close(): Promise<void>;
}

export async function startGitHubStandin(o: { repos: string[]; token?: string; prefix?: string }): Promise<Standin> {
  const token = o.token ?? 'ghp_standin0000000000000000000000000000';
  const prefix = o.prefix ?? '';
  const repos = new Map<string, StandinIssue[]>(o.repos.map((r) => [r, []]));
  const requests: SeenRequest[] = [];
  const pullsOf = new Map<string, StandinPull[]>(o.repos.map((r) => [r, []]));
  const scripted: { method: string; pattern: RegExp; answer: Scripted }[] = [];
  let base = '';
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const now = (): string => new Date((clock += 1000)).toISOString().replace(/\.\d+Z$/, 'Z');

  const create = (repo: string, i: Partial<StandinIssue> & { title: string }): StandinIssue => {
    const list = repos.get(repo)!;
    const issue: StandinIssue = {
      number: list.length + 1,
      title: i.title,
      body: i.body ?? null,
      labels: i.labels ?? [],
      state: i.state ?? 'open',
      createdAt: i.createdAt ?? now(),
      ...(i.pullRequest ? { pullRequest: true } : {}),
    };
    list.push(issue);
    return issue;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const url = new URL(req.url ?? '/', 'http://standin');
      requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
      const k = scripted.findIndex((s) => s.method === req.method && s.pattern.test(url.pathname));
      const s = k >= 0 ? scripted.splice(k, 1)[0].answer : undefined;
      if (s?.kind === 'drop') return req.socket.destroy();
      if (s?.kind === 'status') return send(res, s.status, s.body ?? { message: 'Server Error', documentation_url: DOCS }, s.headers);
      const answer = handle(req.method ?? 'GET', url, req.headers, body);
      if (s?.kind === 'act-then-drop') return req.socket.destroy();
      send(res, answer.status, answer.body, answer.headers);
    });
  });

  const handle = (
    method: string,
    url: URL,
    headers: http.IncomingHttpHeaders,
    body: unknown,
  ): { status: number; body: unknown; headers?: Record<string, string> } => {
    if (!headers['user-agent'])
      return {
        status: 403,
        body: {
          message:
            'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).',
          documentation_url: DOCS,
        },
      };
    if (!url.pathname.startsWith(`${prefix}/`)) return notFound();
    const auth = headers.authorization ?? '';
    const m = /^(?:token|bearer) (.+)$/i.exec(auth);
    if (auth && (!m || m[1] !== token)) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
    const parts = url.pathname.slice(prefix.length).split('/').filter(Boolean);
    if (parts[0] === 'repos' && parts.length === 4 && parts[3] === 'pulls') {
      const repo = `${parts[1]}/${parts[2]}`;
      if (!auth || !repos.has(repo)) return notFound();
      return method === 'POST' ? createPull(repo, body) : method === 'GET' ? listPulls(repo, url) : notFound();
    }
    if (parts[0] !== 'repos' || parts.length < 4 || parts[3] !== 'issues') return notFound();
    const repo = `${parts[1]}/${parts[2]}`;
    if (!auth || !repos.has(repo)) return notFound(); // a private repository is invisible without a token
    const list = repos.get(repo)!;
    if (parts.length === 4 && method === 'GET') return listIssues(repo, list, url);
    if (parts.length === 4 && method === 'POST') {
      const b = (body ?? {}) as { title?: unknown; body?: unknown; labels?: unknown };
      if (typeof b.title !== 'string' || b.title === '')
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
            documentation_url: `${DOCS}/issues/issues#create-an-issue`,
          },
        };
      const labels = Array.isArray(b.labels) ? b.labels.filter((l): l is string => typeof l === 'string') : [];
      return { status: 201, body: issueJson(repo, create(repo, { title: b.title, body: typeof b.body === 'string' ? b.body : null, labels })) };
    }
    if (parts.length === 5 && /^\d+$/.test(parts[4])) {
      const issue = list.find((i) => i.number === Number(parts[4]));
      if (!issue) return notFound();
      if (method === 'GET') return { status: 200, body: issueJson(repo, issue) };
      if (method === 'PATCH') {
        const st = (body as { state?: unknown } | undefined)?.state;
        if (st === 'open' || st === 'closed') issue.state = st;
        return { status: 200, body: issueJson(repo, issue) };
      }
    }
    return notFound();
  };

  const pullEntries = (repo: string): (StandinPull & StandinIssue)[] =>
    pullsOf.get(repo)!.map((p) => ({ ...repos.get(repo)!.find((i) => i.number === p.number)!, ...p }));

  const createPull = (repo: string, body: unknown): { status: number; body: unknown } => {
    const b = (body ?? {}) as { title?: unknown; head?: unknown; base?: unknown; body?: unknown; draft?: unknown };
    const invalid = (field: string, message?: string): { status: number; body: unknown } => ({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [message ? { resource: 'PullRequest', code: 'custom', message } : { resource: 'PullRequest', code: 'missing_field', field }],
        documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
      },
    });
    if (typeof b.title !== 'string' || b.title === '') return invalid('title');
    if (typeof b.head !== 'string' || b.head === '') return invalid('head');
    if (typeof b.base !== 'string' || b.base === '') return invalid('base');
    const head = b.head.includes(':') ? b.head.split(':')[1] : b.head;
    const owner = repo.split('/')[0];
    if (pullEntries(repo).some((p) => p.head === head && p.base === b.base && p.state === 'open'))
      return invalid('head', `A pull request already exists for ${owner}:${head}.`);
    const issue = create(repo, { title: b.title, body: typeof b.body === 'string' ? b.body : null, pullRequest: true });
    const pull: StandinPull = { number: issue.number, head, base: b.base, draft: b.draft === true };
    pullsOf.get(repo)!.push(pull);
    return { status: 201, body: pullJson(repo, { ...issue, ...pull }) };
  };

  const listPulls = (repo: string, url: URL): { status: number; body: unknown } => {
    const q = url.searchParams;
    const state = q.get('state') ?? 'open';
    const head = q.get('head');
    const owner = repo.split('/')[0];
    const shown = pullEntries(repo).filter((p) => (state === 'all' || p.state === state) && (head === null || head === `${owner}:${p.head}`));
    const perPage = Math.min(100, Number(q.get('per_page') ?? 30));
    const page = Math.max(1, Number(q.get('page') ?? 1));
    return { status: 200, body: shown.slice((page - 1) * perPage, page * perPage).map((p) => pullJson(repo, p)) };
  };

  const pullJson = (repo: string, p: StandinPull & StandinIssue): Record<string, unknown> => {
    const api = `https://api.github.com/repos/${repo}`;
    const owner = repo.split('/')[0];
    const user = (ISSUE_TEMPLATE as { user: unknown }).user;
    const ref = (name: string): Record<string, unknown> => ({
      label: `${owner}:${name}`,
      ref: name,
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      user,
      repo: null,
    });
    return {
      url: `${api}/pulls/${p.number}`,
      id: 3000 + p.number,
      node_id: `PR_${p.number}`,
      html_url: `https://github.com/${repo}/pull/${p.number}`,
      diff_url: `https://github.com/${repo}/pull/${p.number}.diff`,
      patch_url: `https://github.com/${repo}/pull/${p.number}.patch`,
      issue_url: `${api}/issues/${p.number}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user,
      body: p.body,
      labels: [],
      created_at: p.createdAt,
      updated_at: p.createdAt,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      draft: p.draft,
      head: ref(p.head),
      base: ref(p.base),
      author_association: 'OWNER',
    };
  };

  const listIssues = (repo: string, list: StandinIssue[], url: URL): { status: number; body: unknown; headers: Record<string, string> } => {
    const q = url.searchParams;
    const labels = (q.get('labels') ?? '').split(',').filter(Boolean);
    const state = q.get('state') ?? 'open';
    const perPage = Math.min(100, Number(q.get('per_page') ?? 30));
    const page = Math.max(1, Number(q.get('page') ?? 1));
    let shown = list.filter((i) => (state === 'all' || i.state === state) && labels.every((l) => i.labels.includes(l)));
    shown = [...shown].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    if ((q.get('direction') ?? 'desc') === 'desc') shown.reverse();
    const last = Math.max(1, Math.ceil(shown.length / perPage));
    const headers: Record<string, string> = {};
    const link = (p: number): string => {
      const u = new URL(base + url.pathname.slice(prefix.length) + url.search);
      u.searchParams.set('page', String(p));
      return u.toString();
    };
    if (page < last) headers.link = `<${link(page + 1)}>; rel="next", <${link(last)}>; rel="last"`;
    return { status: 200, body: shown.slice((page - 1) * perPage, page * perPage).map((i) => issueJson(repo, i)), headers };
  };

  const issueJson = (repo: string, i: StandinIssue): Record<string, unknown> => {
    const api = `https://api.github.com/repos/${repo}`;
    const j: Record<string, unknown> = {
      ...structuredClone(ISSUE_TEMPLATE),
      url: `${api}/issues/${i.number}`,
      repository_url: api,
      labels_url: `${api}/issues/${i.number}/labels{/name}`,
      comments_url: `${api}/issues/${i.number}/comments`,
      events_url: `${api}/issues/${i.number}/events`,
      html_url: `https://github.com/${repo}/issues/${i.number}`,
      timeline_url: `${api}/issues/${i.number}/timeline`,
      id: 1000 + i.number,
      number: i.number,
      title: i.title,
      body: i.body,
      labels: i.labels.map((name, k) => ({ ...LABEL_TEMPLATE[0], id: 2000 + k, url: `${api}/labels/${encodeURIComponent(name)}`, name })),
      state: i.state,
      comments: 0,
      created_at: i.createdAt,
      updated_at: i.createdAt,
      closed_at: i.state === 'closed' ? i.createdAt : null,
      state_reason: i.state === 'closed' ? 'completed' : null,
    };
    if (i.pullRequest) j.pull_request = { url: `${api}/pulls/${i.number}`, html_url: `https://github.com/${repo}/pull/${i.number}` };
    return j;
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}${prefix}`;
  return {
    url: base,
    token,
    issues: (repo) => repos.get(repo) ?? [],
    seed: (repo, i) => create(repo, i),
    pulls: (repo) => pullEntries(repo),
    requests,
    script: (method, pattern, answer) => scripted.push({ method, pattern, answer }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function notFound(): { status: number; body: unknown } {
  return { status: 404, body: { message: 'Not Found', documentation_url: DOCS } };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-github-media-type': 'github.v3; format=json',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-ratelimit-used': '1',
    'x-ratelimit-resource': 'core',
    ...headers,
  });
  res.end(text);
}
