/**
 * With pull requests on, the file tools act in a cause's own worktree: each gets a `cause`
 * argument (one of the run's crash groups), and the call runs with that cause's worktree
 * (src/git/cause-branches.ts, made on first use) as its workspace. A tool that changes
 * something (write_file, code_patch, run_tests) must name a cause, so nothing is written in the
 * user's checkout; a read-only tool without one reads the workspace as before (the crash reports
 * may be files git does not track).
 *
 * Not wired yet: the run's ledger (the workspace-changed check, Review Changes and Undo) covers
 * the user's workspace only, so writes in a worktree are not recorded there; git is their
 * record (commit_fix commits them with the call's key).
 */
import { z } from 'zod';
import type { Tool, ToolOutput } from '../agent/tool';
import type { CauseBranches } from '../git/cause-branches';

export function inCauseWorktree(tool: Tool, branches: CauseBranches, causes: readonly string[]): Tool {
  if (!(tool.args instanceof z.ZodObject)) throw new Error(`${tool.name}'s arguments are not an object: it cannot take a cause`);
  const cause = z.enum(causes as [string, ...string[]]).describe("The crash group's cause: the call acts in that cause's own branch and worktree");
  const required = !tool.readOnly;
  const args = (tool.args as z.ZodObject).extend({ cause: required ? cause : cause.nullish() });
  const wrapped: Tool = {
    name: tool.name,
    description: `${tool.description} ${required ? 'cause: the crash group whose branch it acts in (required: each cause has its own worktree).' : "cause: act in that crash group's worktree (its branch); omit to read the workspace itself."}`,
    args,
    run: async (a, ctx): Promise<ToolOutput> => {
      const { cause: c, ...rest } = a as { cause?: string | null } & Record<string, unknown>;
      if (c === undefined || c === null) return tool.run(rest, ctx);
      const workspace = await branches.workspaceOf(c, ctx.signal);
      return tool.run(rest, { ...ctx, workspace, recordWrite: async () => {} });
    },
  };
  if (tool.lookup) {
    const lookup = tool.lookup.bind(tool);
    // The ladder asks where the call acted: in the cause's worktree, or the workspace without one.
    wrapped.lookup = async (a, ctx) => {
      const { cause: c, ...rest } = a as { cause?: string | null } & Record<string, unknown>;
      if (c === undefined || c === null) return lookup(rest, ctx);
      return lookup(rest, { ...ctx, workspace: await branches.workspaceOf(c, ctx.signal), recordWrite: async () => {} });
    };
  }
  if (tool.vendor) wrapped.vendor = tool.vendor;
  if (tool.readOnly) wrapped.readOnly = true;
  if (tool.idempotent) wrapped.idempotent = true;
  if (tool.needsApproval) wrapped.needsApproval = true;
  return wrapped;
}
