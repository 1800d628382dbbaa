/**
 * issue_file {title, body, cause}: files an issue in the tracker. Needs a person's approval.
 *
 * With keys on and a tracker that honours keys (the embedded/HTTP tracker) it is keyed: the
 * loop's idempotency key goes in the Idempotency-Key header (never in the body the model wrote),
 * the run ID in X-Triage-Run, and the tool declares the tracker's key retention; its lookup asks
 * the tracker by key. With a tracker that does not (GitHub) it is NOT keyed, so a marked call
 * never goes to a blind rerun: the same key (the formula over the run ID and the call ID) travels
 * in the issue's hidden marker, and the lookup finds the issue by it. With keys off it is neither
 * keyed nor has a lookup, so a marked call goes to a person, as in the chapter.
 *
 * The refile guard: before filing, the tracker is searched for an open issue with the same
 * cause filed from the same workspace (on GitHub: the same repository), by this run or any
 * other; if there is one (and it is not
 * this very call's, by key), the filing is refused with that issue's number. It covers what
 * keys cannot: the model filing one crash a second time through a fresh call, which carries a
 * fresh key, and a later run of the same workspace filing a cause again.
 */
import type { LookupAnswer, Tool, ToolContext, ToolOutput } from '../agent/tool';
import { TrackerError } from '../tracker/errors';
import type { Tracker } from '../tracker/tracker';
import { idempotencyKey } from '../agent/idempotency-key';
import type { TrackerIssue } from '../tracker/store';
import { LIMITS } from '../tracker/input';
import { z } from 'zod';
import { errorResult, guarded, text } from './guarded';
import { clip, str, webLink, type ToolView } from './view';
import type { Block } from '../core/transcript';
import { perRun } from './run-schema';

interface IssueArgs {
  title: string;
  body: string;
  cause: string;
}

/** A filing: "File issue: <title>", the issue's title, cause and body, shown unfolded; its result names the issue filed (filedText, read back). */
export const issueFileView: ToolView = {
  icon: 'issues',
  unfolded: true,
  call(a) {
    const title = str(a.title) ?? '';
    const b: Block = { kind: 'issue', title, body: clip(str(a.body) ?? '') };
    const cause = str(a.cause);
    if (cause !== undefined) b.cause = cause;
    return { title: `File issue: ${title}`, args: [b] };
  },
  filed(r) {
    if (r.isError) return undefined;
    const m = /^filed issue #(\d+): (.*)$(?:\nurl: (https?:\/\/\S+)$)?/m.exec(r.content);
    if (!m) return undefined;
    return m[3] ? { number: Number(m[1]), title: m[2], url: m[3] } : { number: Number(m[1]), title: m[2] };
  },
};

/**
 * The arguments; with the run's causes, `cause` must be one of them (an enum the model is told
 * of): a filing for anything else is an error result naming the valid causes, refused before
 * any person is asked and before the tracker is, so no reply can file issues that are no crash group.
 */
const issueArgs = perRun((causes): z.ZodType<IssueArgs> => {
  const what = "The crash group's cause slug (its folder name under crashes/)";
  let cause: z.ZodType<string>;
  if (causes === undefined) cause = text(what).max(LIMITS.cause);
  else if (causes.length === 0)
    cause = z
      .string()
      .describe(what)
      .refine(() => false, { error: 'cannot be filed: this run has no crash groups' });
  else cause = z.enum(causes as [string, ...string[]]).describe(`${what}: one of this run's crash groups`);
  return z.strictObject({
    title: text('What goes wrong, in one line').max(LIMITS.title),
    body: text('Details: the crash reports (by file name), the cause, the fix').max(LIMITS.body),
    cause,
  });
});

export interface IssueFileOptions {
  tracker: Tracker;
  keys: boolean;
  /** The run's crash groups' causes: the only causes it may file for (undefined: any cause; only for tests of the tool alone). */
  causes?: readonly string[];
  /** The causes that are Sentry issues (a Sentry crash source): the issue's body ends with a link to it. */
  sentry?: readonly { cause: string; id: string; shortId?: string; permalink?: string }[];
}

/**
 * The body filed: the model's, and for a cause that is a Sentry issue with an http(s) link a last
 * line linking it (unless the body links it already), so every filed issue leads back to Sentry
 * whatever the model wrote. The model's text is cut to leave room under the tracker's limit.
 */
export function bodyWithSentryLink(body: string, cause: string, sentry: IssueFileOptions['sentry']): string {
  const s = sentry?.find((x) => x.cause === cause);
  const url = webLink(s?.permalink);
  if (!s || !url || body.includes(url)) return body;
  const line = `Sentry issue: [${s.shortId ?? s.id}](${url})`;
  const room = LIMITS.body - line.length - 2;
  return `${body.length > room ? body.slice(0, room) : body.replace(/\s+$/, '')}\n\n${line}`;
}

export function issueFileTool(o: IssueFileOptions): Tool<IssueArgs> {
  const { tracker } = o;
  const tool: Tool<IssueArgs> = {
    name: 'issue_file',
    description:
      "Files one issue in the tracker for one crash cause (a person approves it first). cause: the crash group's cause (its folder name); only the run's crash groups can be filed. A cause already filed for this workspace (by this run or an earlier one) is refused with the existing issue's number.",
    args: issueArgs(o.causes),
    needsApproval: true,
    run: (input, ctx) =>
      guarded('issue_file', ctx.workspace, async () => {
        const key = keyOf(o.keys, tracker, ctx);
        try {
          const filed = (await tracker.search({ cause: input.cause, workspace: ctx.workspace }, ctx.signal)).filter((i) => i.state !== 'closed');
          const mine = key !== undefined ? filed.find((i) => i.key === key) : undefined;
          if (mine) return { content: filedText(mine) }; // this very call, sent again: same answer, nothing new filed
          if (filed.length > 0) return errorResult(alreadyFiled(filed[0], input.cause, ctx.runId));
          const filing = { ...input, body: bodyWithSentryLink(input.body, input.cause, o.sentry) };
          const { issue } = await tracker.fileIssue(filing, { key, runId: ctx.runId, workspace: ctx.workspace, signal: ctx.signal });
          return { content: filedText(issue) };
        } catch (e) {
          if (e instanceof TrackerError) return trackerDown(e);
          throw e;
        }
      }),
    // Asked before a person is: a cause already filed is not put to them for approval; the existing issue is the call's result.
    settledBeforeApproval: async (input, ctx) => {
      const filed = (await tracker.search({ cause: input.cause, workspace: ctx.workspace }, ctx.signal)).filter((i) => i.state !== 'closed');
      const key = keyOf(o.keys, tracker, ctx);
      const mine = key !== undefined ? filed.find((i) => i.key === key) : undefined;
      if (mine) return { content: filedText(mine) };
      return filed.length > 0 ? { content: alreadyFiledText(filed[0], input.cause, ctx.runId) } : undefined;
    },
    describe(args) {
      return { title: issueFileView.call({ ...args }).title, detail: `${bodyWithSentryLink(args.body, args.cause, o.sentry)}\n\ncause: ${args.cause}` };
    },
  };
  if (o.keys) {
    if (tracker.honoursKeys) tool.keyed = { retention: (signal) => tracker.keyRetention(signal) };
    tool.lookup = (_raw, ctx) => lookupByKey(tracker, keyOf(true, tracker, ctx), ctx);
  }
  return tool;
}

/** The call's key: the loop's (a keyed tool), or for a tracker that keeps no keys the same formula, for the hidden marker. */
function keyOf(keys: boolean, tracker: Tracker, ctx: ToolContext): string | undefined {
  if (!keys) return undefined;
  return tracker.honoursKeys ? ctx.key : idempotencyKey(ctx.runId, ctx.callId);
}

/** Ask the tracker by key: found -> done, with the same text a filing gives; certainly none -> not done; anything else throws. */
async function lookupByKey(tracker: Tracker, key: string | undefined, ctx: ToolContext): Promise<LookupAnswer> {
  if (key === undefined) throw new Error('issue_file has no idempotency key for this call, so the tracker cannot be asked whether it was filed');
  const issue = await tracker.byKey(key, ctx.signal);
  if (issue) return { status: 'done', output: { content: filedText(issue) } };
  return { status: 'not-done' };
}

function alreadyFiled(i: TrackerIssue, cause: string, runId: string): string {
  const by = i.runId === undefined ? '' : i.runId === runId ? ' by this run' : ` by run ${i.runId}`;
  return `issue #${i.number} is already filed for cause ${cause} in this workspace${by}; not filing it again`;
}

/** The result of a filing settled before approval: "already filed as issue #N: <title> (cause <c>, by run <r>); not filed again". */
export function alreadyFiledText(i: Pick<TrackerIssue, 'number' | 'title' | 'runId'>, cause: string, runId: string): string {
  const by = i.runId === undefined ? '' : i.runId === runId ? ', by this run' : `, by run ${i.runId}`;
  return `already filed as issue #${i.number}: ${i.title} (cause ${cause}${by}); not filed again, and nobody was asked to approve it`;
}

/** "filed issue #3: Title", and on a second line the issue's web page where the tracker has one (GitHub). */
export function filedText(i: Pick<TrackerIssue, 'number' | 'title' | 'url'>): string {
  return `filed issue #${i.number}: ${i.title}${i.url ? `\nurl: ${i.url}` : ''}`;
}

function trackerDown(e: TrackerError): ToolOutput {
  if (e.status !== undefined && e.status < 500) return errorResult(`issue_file: ${e.message}. Nothing was filed.`);
  return errorResult(`issue_file: ${e.message} The issue may or may not have been filed; check with issue_lookup (by cause) before filing it again.`);
}
