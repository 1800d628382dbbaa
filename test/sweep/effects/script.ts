/**
 * The effects sweep's scripted run: a crash-folder run of the node fixture repository with two
 * Sentry issues as its crash groups, the GitHub stand-in as tracker and --pull-requests. The model
 * files an issue per cause, writes each cause's fix in its worktree, commits it, opens its pull
 * request and comments on its Sentry issue (one call per cause in each turn), then answers. The
 * person approves everything and answers the ladder's questions (keys off) by looking at the real
 * things: GitHub's issues and pull requests, the cause's branch in git, the Sentry issue's comments.
 */
import { execFileSync } from 'node:child_process';
import type { TriageRunOptions } from '../../../src/triage/job';
import type { ModelProvider, ModelRequest } from '../../../src/model/provider';
import { PriceTable } from '../../../src/model/prices';
import type { ModelReply } from '../../../src/core/conversation';
import type { Approver, ApprovalAnswer, LadderAnswer, LadderQuestion } from '../../../src/agent/approver';
import type { SweepCounters } from '../../../src/sweep/job';
import { readMarker } from '../../../src/tracker/github/marker';

export const REPO = 'acme/api';
export const ORG = 'acme';
export const PROJECT = 'api';

/** The two causes, as the Sentry source names the stand-in's top two issues (checked by the clean run), with their Sentry issue IDs and fixes. */
export const CAUSES = [
  {
    cause: 'parse-duration-type-error',
    sentryId: '101',
    file: 'src/duration.js',
    title: 'parseDuration crashes on an unknown unit',
  },
  {
    cause: 'total-type-error',
    sentryId: '102',
    file: 'src/report.js',
    title: 'total crashes on an empty list',
  },
] as const;

/** The fix's text for a cause: its file with a line the sweep can see. */
export function fixText(cause: string): string {
  return `// fixed: ${cause}\nmodule.exports = {};\n`;
}

function reply(turn: number, calls: [string, unknown][], text?: string): ModelReply {
  const r: ModelReply = {
    calls: calls.map(([name, args], i) => ({ id: `call_${turn}_${i}`, name, args: JSON.stringify(args) })),
    usage: { inputTokens: 1000 + 400 * turn, outputTokens: 120, dollars: 0.0048 + 0.0012 * turn },
    model: 'scripted',
  };
  if (text !== undefined) r.text = text;
  return r;
}

const each = (name: string, args: (c: (typeof CAUSES)[number]) => object): [string, unknown][] => CAUSES.map((c) => [name, args(c)]);

export const SCRIPT: ModelReply[] = [
  reply(
    0,
    each('issue_file', (c) => ({ title: c.title, body: `The Sentry issue ${c.sentryId}.`, cause: c.cause })),
  ),
  reply(
    1,
    each('write_file', (c) => ({ path: c.file, content: fixText(c.cause), cause: c.cause })),
  ),
  reply(
    2,
    each('commit_fix', (c) => ({ cause: c.cause, message: `Fix ${c.cause}` })),
  ),
  reply(
    3,
    each('pull_request', (c) => ({ cause: c.cause, title: c.title, body: `Fixes the crash group ${c.cause}.` })),
  ),
  reply(
    4,
    each('sentry_comment', (c) => ({ cause: c.cause })),
  ),
  reply(5, [], 'Filed, fixed, committed, opened and commented for both causes.'),
];

export class EffectsModel implements ModelProvider {
  readonly provider = 'scripted';
  readonly model = 'scripted';
  readonly prices = new PriceTable();
  constructor(private readonly c: SweepCounters) {}
  async complete(req: ModelRequest): Promise<ModelReply> {
    const r = SCRIPT[req.turn];
    if (!r) throw new Error(`the effects sweep's script has no turn ${req.turn}`);
    this.c.requests[req.turn] = (this.c.requests[req.turn] ?? 0) + 1;
    if (this.c.savedReplies.has(req.turn)) this.c.paidTwice++;
    return structuredClone(r);
  }
}

/** Where the person looks. */
export interface Places {
  githubUrl: string;
  githubToken: string;
  sentryUrl: string;
  sentryToken: string;
  /** The user's checkout (the cause branches live in its repository). */
  workspace: string;
}

async function getJson(url: string, headers: Record<string, string>): Promise<{ body: unknown; next?: string }> {
  const res = await fetch(url, { headers: { 'User-Agent': 'effects-sweep', Accept: 'application/json', ...headers } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  const link = res.headers.get('link') ?? '';
  const next = /<([^>]+)>; rel="next"(?:; results="(true|false)")?/.exec(link);
  return { body: await res.json(), ...(next && next[2] !== 'false' ? { next: next[1] } : {}) };
}

async function allPages<T>(url: string, headers: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  for (let u: string | undefined = url; u !== undefined;) {
    const page: { body: unknown; next?: string } = await getJson(u, headers);
    out.push(...(page.body as T[]));
    u = page.next;
  }
  return out;
}

interface GhIssue {
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  pull_request?: unknown;
}

/** Our GitHub issues (not pull requests) and pull requests of a cause, by their marker. */
export async function githubOf(p: Places, cause: string): Promise<{ issues: GhIssue[]; pulls: GhIssue[] }> {
  const all = await allPages<GhIssue>(`${p.githubUrl}/repos/${REPO}/issues?state=all&per_page=100`, { Authorization: `token ${p.githubToken}` });
  const ours = all.filter((i) => readMarker(i.body)?.marker.cause === cause);
  return { issues: ours.filter((i) => !i.pull_request), pulls: ours.filter((i) => i.pull_request) };
}

/** The comments with our marker for the cause on its Sentry issue. */
export async function sentryCommentsOf(p: Places, sentryId: string, cause: string): Promise<{ id: string; text: string }[]> {
  const all = await allPages<{ id: string; data: { text: string } }>(`${p.sentryUrl}/api/0/organizations/${ORG}/issues/${sentryId}/comments/`, {
    Authorization: `Bearer ${p.sentryToken}`,
  });
  return all.map((c) => ({ id: c.id, text: c.data.text })).filter((c) => readMarker(c.text)?.marker.cause === cause);
}

/** `git` in a folder, stdout trimmed. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).trim();
}

/** Per cause, the commits on its branches (triage/<cause>-*) of a repository that carry a Triage-Key trailer for it, by branch: one git command. */
export function keyedCommits(repo: string): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  const log = git(
    repo,
    'log',
    '--source',
    '--format=%H%x00%S%x00%(trailers:key=Triage-Key,valueonly)%x00%(trailers:key=Triage-Cause,valueonly)%x1e',
    '--branches=triage/*',
    '--not',
    'refs/heads/main',
  );
  for (const rec of log
    .split('\x1e')
    .map((r) => r.trim())
    .filter(Boolean)) {
    const [sha, ref, key, cause] = rec.split('\x00').map((x) => x.trim());
    if (key === '' || cause === '') continue;
    const branch = ref.replace(/^refs\/heads\//, '');
    if (!branch.startsWith(`triage/${cause}-`)) continue;
    const byBranch = out.get(cause) ?? new Map<string, string[]>();
    out.set(cause, byBranch);
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), sha]);
  }
  return out;
}

function causeOf(q: LadderQuestion): (typeof CAUSES)[number] {
  const cause = (JSON.parse(q.args) as { cause?: string }).cause;
  const c = CAUSES.find((x) => x.cause === cause);
  if (!c) throw new Error(`the person was asked about ${q.tool} for an unknown cause ${cause}`);
  return c;
}

/** Approves everything; answers the ladder by looking at GitHub, git and Sentry. */
export class EffectsPerson implements Approver {
  constructor(
    private readonly c: SweepCounters,
    private readonly p: Places,
  ) {}
  async approve(): Promise<ApprovalAnswer> {
    return 'approve';
  }
  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    this.c.questions++;
    const c = causeOf(q);
    const done = (result: string): LadderAnswer => ({ answer: 'done', result });
    if (q.tool === 'issue_file') {
      const [i] = (await githubOf(this.p, c.cause)).issues;
      return i ? done(`filed issue #${i.number}: ${i.title}`) : { answer: 'rerun' };
    }
    if (q.tool === 'pull_request') {
      const [pr] = (await githubOf(this.p, c.cause)).pulls;
      return pr ? done(`opened pull request #${pr.number}: ${pr.title}\nurl: ${pr.html_url}`) : { answer: 'rerun' };
    }
    if (q.tool === 'sentry_comment') {
      const [m] = await sentryCommentsOf(this.p, c.sentryId, c.cause);
      return m ? done(`commented on Sentry issue ${c.sentryId} (comment ${m.id})`) : { answer: 'rerun' };
    }
    if (q.tool === 'commit_fix') {
      for (const [branch, shas] of keyedCommits(this.p.workspace).get(c.cause) ?? []) if (shas.length) return done(`committed ${shas[0]} on ${branch}`);
      return { answer: 'rerun' };
    }
    return { answer: 'rerun' };
  }
}

/** What a scenario's lives share of runTriage's options (a child process builds the same from the places). */
export function runOptions(p: Places & { state: string }, keys: boolean): Omit<TriageRunOptions, 'model' | 'approver'> & { model?: TriageRunOptions['model'] } {
  return {
    stateDir: p.state,
    task: 'crash-folder',
    workspace: p.workspace,
    crashes: `sentry:${ORG}/${PROJECT}`,
    sentry: { baseUrl: p.sentryUrl, limit: CAUSES.length, token: p.sentryToken },
    trackerUrl: `github:${REPO}`,
    githubApiUrl: p.githubUrl,
    githubToken: p.githubToken,
    pullRequests: {},
    keys,
    limits: { maxRestarts: 10 },
  };
}
