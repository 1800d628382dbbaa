/**
 * pull_request {cause, title, body}: pushes the cause's branch and opens one pull request for
 * it, exactly once. A person approves it first (the question shows the branch's diff against the
 * base). The body gets `Fixes #N` for the issue filed for the cause (when there is one) and our
 * hidden marker with the call's key (src/tracker/github/pulls.ts). With keys on, the ladder's
 * lookup lists the repository's pull requests by head branch and matches the key. A pull request
 * already open for the cause's branch (any call's) is the answer, and nothing is opened again.
 * The push is never forced: pushing the same commit again changes nothing; a remote that refuses
 * it stops the run with PushRejectedError, nothing opened.
 */
import { z } from 'zod';
import type { LookupAnswer, Tool, ToolContext, ToolOutput } from '../agent/tool';
import { idempotencyKey } from '../agent/idempotency-key';
import type { CauseBranches } from '../git/cause-branches';
import type { GitHubPulls, PullRequest } from '../tracker/github/pulls';
import type { Tracker } from '../tracker/tracker';
import { errorResult, text } from './guarded';
import { clip, plainResult, str, webLink, type ToolView } from './view';
import { perRun } from './run-schema';

interface PullArgs {
  cause: string;
  title: string;
  body: string;
}

export interface PullRequestOptions {
  branches: CauseBranches;
  pulls: GitHubPulls;
  /** The tracker the run files into: its issue for the cause goes in `Fixes #N` (GitHub's, of the same repository). */
  tracker: Tracker;
  causes: readonly string[];
  keys: boolean;
  remote: string;
  draft: boolean;
}

const pullArgs = perRun((causes) =>
  z.strictObject({
    cause: z.enum(causes as [string, ...string[]]).describe("The crash group's cause"),
    title: text('The pull request title').max(256),
    body: text('What was wrong, the crash reports (by file name), the regression test and the fix').max(60_000),
  }),
);

export function pullRequestTool(o: PullRequestOptions): Tool<PullArgs> {
  const { branches, pulls } = o;
  const existing = async (cause: string, signal: AbortSignal): Promise<PullRequest | undefined> =>
    (await pulls.byHead(branches.branch(cause), signal)).find((p) => p.cause === cause);
  const tool: Tool<PullArgs> = {
    name: 'pull_request',
    description:
      "Pushes the cause's branch and opens its pull request (a person approves it first), with Fixes #N for the issue filed for the cause. Call it once per cause, after commit_fix. A cause's pull request already open is the answer.",
    args: pullArgs(o.causes),
    needsApproval: true,
    settledBeforeApproval: async (a, ctx) => {
      const p = await existing(a.cause, ctx.signal);
      return p ? { content: `${openedText(p)}\n(already open for cause ${a.cause}; not opened again, and nobody was asked to approve it)` } : undefined;
    },
    run: async (a, ctx): Promise<ToolOutput> => {
      const key = keyOf(ctx);
      const already = await existing(a.cause, ctx.signal);
      if (already) return { content: openedText(already) };
      const tip = await branches.tip(a.cause);
      if (!tip || tip === branches.o.baseSha) return errorResult(`pull_request: nothing is committed for cause ${a.cause} yet: commit_fix first.`);
      await branches.push(a.cause, o.remote, ctx.signal);
      const issue = (await o.tracker.search({ cause: a.cause }, ctx.signal)).find((i) => i.state !== 'closed');
      const body = issue ? `${a.body.trim()}\n\nFixes #${issue.number}` : a.body;
      const p = await pulls.open(
        { branch: branches.branch(a.cause), base: branches.o.base, title: a.title, body, draft: o.draft, cause: a.cause, key, runId: ctx.runId },
        ctx.signal,
      );
      return { content: openedText(p) };
    },
    describe: (a) => ({
      title: `Open pull request: ${a.title}`,
      detail: `${branches.branch(a.cause)} -> ${branches.o.base} (push to ${o.remote}${o.draft ? ', draft' : ''})\n\n${a.body}\n\n${branches.diffText(a.cause)}`,
    }),
  };
  if (o.keys) tool.lookup = (a, ctx) => lookup(pulls, branches.branch(a.cause), keyOf(ctx), ctx);
  return tool;
}

function keyOf(ctx: ToolContext): string {
  return idempotencyKey(ctx.runId, ctx.callId);
}

async function lookup(pulls: GitHubPulls, branch: string, key: string, ctx: ToolContext): Promise<LookupAnswer> {
  const p = (await pulls.byHead(branch, ctx.signal)).find((x) => x.key === key);
  return p ? { status: 'done', output: { content: openedText(p) } } : { status: 'not-done' };
}

/** "opened pull request #N: <title>", then its url and branch. */
export function openedText(p: PullRequest): string {
  return `opened pull request #${p.number}: ${p.title}\nurl: ${p.url}\nbranch: ${p.head}${p.draft ? ' (draft)' : ''}`;
}

/** "Open pull request: <title>", with its cause and body unfolded; the result links the pull request and names its branch. */
export const pullRequestView: ToolView = {
  icon: 'git-pull-request',
  unfolded: true,
  call(a) {
    const title = str(a.title) ?? '';
    const cause = str(a.cause);
    return { title: `Open pull request: ${title}`, args: [{ kind: 'issue', title, body: clip(str(a.body) ?? ''), ...(cause !== undefined ? { cause } : {}) }] };
  },
  result(r) {
    const look = plainResult(r);
    if (r.isError) return look;
    const m = /^opened pull request #(\d+): .*$/m.exec(r.content);
    const url = webLink(/^url: (\S+)$/m.exec(r.content)?.[1]);
    const branch = /^branch: (\S+)/m.exec(r.content)?.[1];
    if (!m) return look;
    return {
      summary: `opened pull request #${m[1]}${branch ? ` from ${branch}` : ''}`,
      isError: false,
      blocks: url ? [{ kind: 'links', links: [{ label: `Pull request #${m[1]}`, url }] }] : [],
    };
  },
  made(r) {
    const m = r.isError ? null : /^opened pull request #(\d+): /m.exec(r.content);
    if (!m) return undefined;
    const url = webLink(/^url: (\S+)$/m.exec(r.content)?.[1]);
    const branch = /^branch: (\S+)/m.exec(r.content)?.[1];
    return { pullRequest: { number: Number(m[1]), ...(url ? { url } : {}) }, ...(branch ? { branch } : {}) };
  },
};
