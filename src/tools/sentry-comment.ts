/**
 * sentry_comment {cause}: comments on the cause's Sentry issue with the links of what the run
 * made for it (the GitHub issue filed for the cause, and its pull request when pull requests are
 * on), exactly once. The comment is written by the tool, not the model: a line per link, then our
 * hidden marker with the call's idempotency key, cause and run (src/tracker/github/marker.ts).
 * With keys on, the ladder's lookup lists the Sentry issue's comments and finds the marker with
 * the key: done (that comment), else not done; Sentry failing -> the lookup throws. A comment of
 * this run for the cause already there (any call's) is the answer, and nothing is posted again.
 *
 * It is a tool of its own, not a step of pull_request or issue_file: its side effect (a Sentry
 * comment) is a third service's, and the loop's durability (attempt marker, key, ladder) is per
 * call, so a crash between a pull request and its comment leaves one call to settle, not a half.
 */
import { z } from 'zod';
import type { LookupAnswer, Tool, ToolContext } from '../agent/tool';
import { idempotencyKey } from '../agent/idempotency-key';
import type { Block } from '../core/transcript';
import { readMarker, withMarker } from '../tracker/github/marker';
import type { Tracker } from '../tracker/tracker';
import { errorResult } from './guarded';
import { str, webLink, type ToolView } from './view';
import { perRun } from './run-schema';

/** A Sentry issue's comments, as the tool needs them (src/crashes/sentry/comments.ts is Sentry's). */
export interface SentryCommentsApi {
  list(issueId: string): Promise<{ id: string; text: string }[]>;
  post(issueId: string, text: string): Promise<{ id: string; text: string }>;
}

/** A cause's Sentry issue, as the run saved it. */
export interface SentryIssueOfCause {
  cause: string;
  id: string;
  shortId?: string;
  permalink?: string;
}

export interface SentryCommentOptions {
  comments: SentryCommentsApi;
  /** The run's causes that are Sentry issues. */
  issues: readonly SentryIssueOfCause[];
  tracker: Tracker;
  /** The cause's pull request, when pull requests are on. */
  pullRequest?: (cause: string, signal: AbortSignal) => Promise<{ number: number; title: string; url: string } | undefined>;
  keys: boolean;
}

interface CommentArgs {
  cause: string;
}

const commentArgs = perRun((causes) => z.strictObject({ cause: z.enum(causes as [string, ...string[]]).describe("The crash group's cause (a Sentry issue)") }));

export function sentryCommentTool(o: SentryCommentOptions): Tool<CommentArgs> {
  const issueOf = (cause: string): SentryIssueOfCause => o.issues.find((i) => i.cause === cause)!;
  /** Our comment on the cause's Sentry issue: the one with the key, else (with `runId`) any of that run for the cause. */
  const ours = async (cause: string, key: string | undefined, runId?: string): Promise<{ id: string; text: string } | undefined> => {
    const all = await o.comments.list(issueOf(cause).id);
    const marked = all.map((c) => ({ c, m: readMarker(c.text)?.marker })).filter((x) => x.m?.cause === cause);
    return (marked.find((x) => key !== undefined && x.m?.key === key) ?? (runId !== undefined ? marked.find((x) => x.m?.runId === runId) : undefined))?.c;
  };
  const tool: Tool<CommentArgs> = {
    name: 'sentry_comment',
    description:
      "Comments on the cause's Sentry issue with the links of its GitHub issue (and pull request, when there is one). Call it once per cause, after issue_file (and pull_request). The tool writes the comment.",
    args: commentArgs(o.issues.map((i) => i.cause)),
    run: async (a, ctx) => {
      const key = o.keys ? keyOf(ctx) : undefined;
      const s = issueOf(a.cause);
      const already = await ours(a.cause, key, ctx.runId);
      if (already) return { content: commentedText(s, already.id) };
      const issue = (await o.tracker.search({ cause: a.cause }, ctx.signal)).find((i) => i.state !== 'closed');
      const pr = await o.pullRequest?.(a.cause, ctx.signal);
      if (!issue && !pr) return errorResult(`sentry_comment: nothing to link for cause ${a.cause} yet: file its issue with issue_file first.`);
      const lines = ['Durable Triage worked on this crash group (cause `' + a.cause + '`):'];
      if (issue) lines.push(`- Issue #${issue.number}: ${issue.title}${issue.url ? ` ${issue.url}` : ''}`);
      if (pr) lines.push(`- Pull request #${pr.number}: ${pr.title} ${pr.url}`);
      const c = await o.comments.post(s.id, withMarker(lines.join('\n'), { cause: a.cause, runId: ctx.runId, ...(key ? { key } : {}) }));
      return { content: commentedText(s, c.id) };
    },
  };
  // The ladder's lookup: by this call's key only (another call's comment is not this call's); Sentry failing throws.
  if (o.keys)
    tool.lookup = async (a, ctx): Promise<LookupAnswer> => {
      const c = await ours(a.cause, keyOf(ctx));
      return c ? { status: 'done', output: { content: commentedText(issueOf(a.cause), c.id) } } : { status: 'not-done' };
    };
  return tool;
}

function keyOf(ctx: ToolContext): string {
  return idempotencyKey(ctx.runId, ctx.callId);
}

/** "commented on Sentry issue API-1 (comment 7)", then the issue's url. */
export function commentedText(s: Pick<SentryIssueOfCause, 'id' | 'shortId' | 'permalink'>, commentId: string): string {
  return `commented on Sentry issue ${s.shortId ?? s.id} (comment ${commentId})${s.permalink ? `\nurl: ${s.permalink}` : ''}`;
}

/** "Comment on the Sentry issue (<cause>)"; its result links the Sentry issue. */
export const sentryCommentView: ToolView = {
  icon: 'comment',
  call: (a) => ({ title: `Comment on the Sentry issue (${str(a.cause) ?? '?'})`, args: [] }),
  result(r) {
    const first = (r.content.split('\n')[0] ?? '').trim();
    const url = /^url: (\S+)$/m.exec(r.content)?.[1];
    const link = r.isError ? undefined : webLink(url);
    const blocks: Block[] = link ? [{ kind: 'links', links: [{ label: 'Sentry issue', url: link }] }] : [];
    return { summary: first || '(no output)', isError: r.isError === true, blocks };
  },
  made(r) {
    const m = r.isError ? null : /^commented on Sentry issue \S+ \(comment ([^)]+)\)/.exec(r.content);
    return m ? { sentryComment: m[1] } : undefined;
  },
};
