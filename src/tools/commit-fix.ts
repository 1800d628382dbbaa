/**
 * commit_fix {cause, message}: commits everything changed in the cause's worktree (its
 * regression test and fix) on the cause's branch, exactly once. The commit carries the call's
 * idempotency key as a trailer (`Triage-Key: <key>`, with `Triage-Run` and `Triage-Cause`);
 * with keys on, the ladder's lookup asks git for a commit with that trailer on the branch:
 * found -> done (its SHA), certainly none -> not done, git failing -> unsure (a person).
 * The same call run again (a rerun after a crash) finds its commit first and commits nothing new.
 */
import { z } from 'zod';
import type { LookupAnswer, Tool, ToolContext } from '../agent/tool';
import { idempotencyKey } from '../agent/idempotency-key';
import type { CauseBranches } from '../git/cause-branches';
import { errorResult, text } from './guarded';
import { clip, plainResult, str, type ToolView } from './view';
import { perRun } from './run-schema';

interface CommitArgs {
  cause: string;
  message: string;
}

const commitArgs = perRun((causes) =>
  z.strictObject({
    cause: z.enum(causes as [string, ...string[]]).describe("The crash group's cause"),
    message: text('The commit message: a subject line, a blank line, what was wrong and how the test shows it').max(10_000),
  }),
);

export function commitFixTool(o: { branches: CauseBranches; causes: readonly string[]; keys: boolean }): Tool<CommitArgs> {
  const { branches } = o;
  const tool: Tool<CommitArgs> = {
    name: 'commit_fix',
    description:
      "Commits the cause's regression test and fix (everything changed in that cause's worktree) on the cause's own branch. Call it once per cause, after run_tests passes there.",
    args: commitArgs(o.causes),
    run: async (a, ctx) => {
      const key = keyOf(ctx);
      const found = await branches.findCommit(a.cause, key, ctx.signal);
      if (found) return { content: committedText(found, branches.branch(a.cause)) };
      const sha = await branches.commitAll(a.cause, a.message, key, ctx.signal);
      if (!sha)
        return errorResult(
          `commit_fix: nothing changed in the worktree of cause ${a.cause}: write the test and the fix there first (write_file or code_patch with cause "${a.cause}").`,
        );
      return { content: committedText(sha, branches.branch(a.cause)) };
    },
    describe: (a) => ({ title: `Commit fix (${a.cause})`, detail: `${a.message}\n\nbranch: ${branches.branch(a.cause)}` }),
  };
  if (o.keys) tool.lookup = (a, ctx) => lookup(branches, a.cause, keyOf(ctx), ctx);
  return tool;
}

/** The key: the loop's formula over the run and call IDs (git keeps no keys, so the tool is not keyed; the key travels in the trailer). */
function keyOf(ctx: ToolContext): string {
  return idempotencyKey(ctx.runId, ctx.callId);
}

async function lookup(branches: CauseBranches, cause: string, key: string, ctx: ToolContext): Promise<LookupAnswer> {
  const sha = await branches.findCommit(cause, key, ctx.signal);
  return sha ? { status: 'done', output: { content: committedText(sha, branches.branch(cause)) } } : { status: 'not-done' };
}

/** "committed <sha> on <branch>". */
export function committedText(sha: string, branch: string): string {
  return `committed ${sha} on ${branch}`;
}
/** committedText's shape, read back. */
const COMMITTED = /^committed ([0-9a-f]{7,64}) on (\S+)$/;

/** "Commit fix (<cause>)", its message; the result names the commit and its branch. */
export const commitFixView: ToolView = {
  icon: 'git-commit',
  call: (a) => ({ title: `Commit fix (${str(a.cause) ?? '?'})`, args: [{ kind: 'code', label: 'message', text: clip(str(a.message) ?? '') }] }),
  result(r) {
    const m = r.isError ? null : COMMITTED.exec(r.content.trim());
    if (!m) return plainResult(r);
    return {
      summary: `committed ${m[1].slice(0, 12)} on ${m[2]}`,
      isError: false,
      blocks: [{ kind: 'code', label: 'commit', text: `${m[1]}\nbranch: ${m[2]}` }],
    };
  },
  made(r) {
    const m = r.isError ? null : COMMITTED.exec(r.content.trim());
    return m ? { commit: m[1], branch: m[2] } : undefined;
  },
};
