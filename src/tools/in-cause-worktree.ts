/**
 * With pull requests on, the file tools act in a cause's own worktree: each gets a `cause`
 * argument (one of the run's crash groups), and the call runs with that cause's worktree
 * (src/git/cause-branches.ts, made on first use) as its workspace. A tool that changes
 * something (write_file, code_patch, run_tests) must name a cause, so nothing is written in the
 * user's checkout; a read-only tool without one reads the workspace as before (the crash reports
 * may be files git does not track).
 *
 * A write in the worktree goes into the run's ledger with the worktree as its root (keyed by the
 * file's absolute path, src/workspace/ledger-file.ts), and the file as it was before the call is
 * kept from the worktree (`writesIn`): the workspace-changed check, Restore, Accept, Review
 * Changes and Undo cover the worktrees' files as they cover the workspace's.
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
      const progress = ctx.progress?.bind(ctx);
      const workspace = await branches.workspaceOf(c, ctx.signal, progress);
      const testEnv = await branches.testEnvOf(c, ctx.signal);
      return tool.run(rest, { ...ctx, workspace, testEnv, recordWrite: (rel, content) => ctx.recordWrite(rel, content, { cause: c, dir: workspace }) });
    },
  };
  if (tool.lookup) {
    const lookup = tool.lookup.bind(tool);
    // The ladder asks where the call acted: in the cause's worktree, or the workspace without one.
    wrapped.lookup = async (a, ctx) => {
      const { cause: c, ...rest } = a as { cause?: string | null } & Record<string, unknown>;
      if (c === undefined || c === null) return lookup(rest, ctx);
      return lookup(rest, { ...ctx, workspace: await branches.workspaceOf(c, ctx.signal, ctx.progress?.bind(ctx)), recordWrite: async () => {} });
    };
  }
  if (tool.writes) {
    const writes = tool.writes.bind(tool);
    wrapped.writes = (a, workspace) => {
      const { cause: _c, ...rest } = a as { cause?: string | null } & Record<string, unknown>;
      return writes(rest, workspace);
    };
    wrapped.writesIn = async (a, signal, progress) => {
      const c = (a as { cause?: string | null }).cause;
      return c === undefined || c === null ? undefined : { cause: c, dir: await branches.workspaceOf(c, signal, progress) };
    };
  }
  if (tool.vendor) wrapped.vendor = tool.vendor;
  if (tool.readOnly) wrapped.readOnly = true;
  if (tool.idempotent) wrapped.idempotent = true;
  if (tool.needsApproval) wrapped.needsApproval = true;
  return wrapped;
}
