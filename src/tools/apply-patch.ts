/**
 * apply_patch {input}: OpenAI's patch tool, in the V4A format its models are trained on
 * (v4a-patch.ts), offered to OpenAI's models only, as a function tool with one `input` string
 * (our provider speaks Chat Completions, which has no built-in apply_patch type).
 * Adds files and updates existing ones; every target is checked (write-target.ts) and every
 * change computed before the first byte is written, so a bad patch writes nothing.
 * NOT idempotent, so a marked call goes to its lookup, file by file: an added file is done when
 * it holds the added text and not done when it does not exist; an updated file is done when the
 * patch undone applies and the patch does not, not done the other way round. Every file done:
 * done; every file not done: not done; anything else (a patch cut between two files, a file
 * gone or changed): unsure, so it throws and a person decides.
 */
import type { CallDescription, LookupAnswer, Tool, ToolContext } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { recordFound, textOf, writeRecorded } from './edit-file';
import { currentText } from './preview';
import { writeTarget, type WriteTarget } from './write-target';
import { clip, str, type ToolView } from './view';
import { applyHunks, parseV4A, patchText, reversed, type V4AOp } from './v4a-patch';

const Args = z.strictObject({
  input: text('The patch, from "*** Begin Patch" to "*** End Patch"'),
});
type Args = z.infer<typeof Args>;

/** A planned change of one file: its target and new text. */
interface Change {
  op: V4AOp & { kind: 'add' | 'update' };
  target: WriteTarget;
  after: string;
  before?: string;
  /** What was not plain about it (a loose match, a hunk put at the end), for the result. */
  notes: string[];
}

/** "Apply patch (N files)", the patch shown unfolded. */
export const applyPatchView: ToolView = {
  icon: 'diff',
  unfolded: true,
  call(a) {
    const input = str(a.input) ?? '';
    const files = input.split('\n').filter((l) => /^\*\*\* (Add|Delete|Update) File: /.test(l.trim())).length;
    return { title: `Apply patch (${files} file${files === 1 ? '' : 's'})`, args: [{ kind: 'code', text: clip(input) }] };
  },
};

/** "; nothing was changed", naming the patch's other files, which were not applied either. */
function nothingChanged(ops: V4AOp[], except: string): string {
  const others = [...new Set(ops.map((o) => o.path).filter((p) => p !== except))];
  return others.length === 0
    ? '; nothing was changed'
    : `; nothing was changed, so the patch's other changes (to ${others.join(', ')}) were not applied either`;
}

/** The operations the tool carries out, each target checked; Delete File and Move to are refused, each in a sentence the model can act on. */
function targets(input: string, workspace: string, hidden: readonly string[] | undefined): { op: V4AOp & { kind: 'add' | 'update' }; target: WriteTarget }[] {
  const ops = parseV4A(input);
  return ops.map((op) => {
    if (op.kind === 'delete')
      throw new ToolInputError(
        `Delete File is not allowed here: the run records the files it writes, not deletions ("*** Delete File: ${op.path}")${nothingChanged(ops, op.path)}. Send the patch again without the Delete File; to clear the file, empty it with an Update File`,
      );
    if (op.kind === 'update' && op.moveTo !== undefined)
      throw new ToolInputError(
        `Move to is not allowed here: the run records the files it writes, not renames ("*** Move to: ${op.moveTo}")${nothingChanged(ops, op.path)}. Send the patch again with "*** Add File: ${op.moveTo}" holding the new text instead of the Move to`,
      );
    return { op, target: writeTarget(workspace, op.path, hidden) };
  });
}

/** Every change computed (nothing written): a ToolInputError for the first that cannot be made, saying that nothing was. */
async function plan(input: string, ctx: Pick<ToolContext, 'workspace'>, hidden: readonly string[] | undefined): Promise<Change[]> {
  const out: Change[] = [];
  const files = targets(input, ctx.workspace, hidden);
  const ops = files.map((f) => f.op);
  for (const { op, target } of files) {
    const before = await textOf(target);
    if (op.kind === 'add') {
      if (before !== undefined)
        throw new ToolInputError(
          `Add File is not allowed over an existing file: "${target.rel}" exists already${nothingChanged(ops, op.path)}. Change it with "*** Update File: ${target.rel}" instead`,
        );
      out.push({ op, target, after: op.text, notes: [] });
    } else {
      if (before === undefined)
        throw new ToolInputError(
          `"*** Update File: ${target.rel}": the file does not exist${nothingChanged(ops, op.path)}. Create it with "*** Add File: ${target.rel}" instead`,
        );
      let patched: ReturnType<typeof patchText>;
      try {
        patched = patchText(before, op.hunks, target.rel);
      } catch (e) {
        if (e instanceof ToolInputError)
          throw new ToolInputError(
            `${e.message}. The patch applies whole or not at all${nothingChanged(ops, op.path)}; send it again whole with this change fixed`,
          );
        throw e;
      }
      out.push({ op, target, before, after: patched.text, notes: patched.notes });
    }
  }
  return out;
}

/** `workspace`: for describe()'s diff; `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function applyPatchTool(o: { workspace?: string; hidden?: readonly string[] } = {}): Tool<Args> {
  return {
    name: 'apply_patch',
    vendor: 'openai',
    description:
      'Changes files of the workspace with a patch in the apply_patch format: "*** Begin Patch", then per file "*** Update File: <path>" with hunks ("@@" optionally followed by a line to find first; context lines starting with a space, removed lines with "-", added lines with "+"; no line numbers) or "*** Add File: <path>" with "+" lines, then "*** End Patch".',
    args: Args,
    writes: (args, workspace) => {
      try {
        return targets(args.input, workspace, o.hidden).map((t) => t.target.rel);
      } catch {
        return [];
      }
    },
    run: (args, ctx) =>
      guarded('apply_patch', ctx.workspace, async () => {
        const changes = await plan(args.input, ctx, o.hidden);
        for (const c of changes) await writeRecorded(c.target, c.after, ctx);
        return { content: summary(changes) };
      }),
    async lookup(args, ctx): Promise<LookupAnswer> {
      let files: ReturnType<typeof targets>;
      try {
        files = targets(args.input, ctx.workspace, o.hidden);
      } catch (e) {
        // A patch the tool refuses: the call wrote nothing, and running it again gives the same error.
        if (e instanceof ToolInputError) return { status: 'not-done' };
        throw e;
      }
      const states: { rel: string; state: 'done' | 'not-done' | 'unsure'; now?: string; target: WriteTarget }[] = [];
      for (const { op, target } of files) {
        const now = await textOf(target);
        states.push({ rel: target.rel, target, ...(now !== undefined ? { now } : {}), state: fileState(op, now, target.rel) });
      }
      if (states.every((s) => s.state === 'done')) {
        for (const s of states) await recordFound(s.target, s.now!, ctx);
        return { status: 'done', output: { content: `applied patch: ${states.map((s) => s.rel).join(', ')} (found in place)` } };
      }
      if (states.every((s) => s.state === 'not-done')) return { status: 'not-done' };
      throw new Error(`cannot tell whether the patch was applied: ${states.map((s) => `${s.rel} ${s.state === 'unsure' ? 'unsure' : s.state}`).join(', ')}`);
    },
    describe(args) {
      const d: CallDescription = { title: applyPatchView.call(args).title, detail: args.input };
      if (o.workspace) {
        try {
          const one = targets(args.input, o.workspace, o.hidden);
          if (one.length === 1) {
            const { op } = one[0];
            const cur = currentText(o.workspace, op.path, o.hidden);
            if (cur) d.diff = { path: cur.rel, before: cur.text, after: op.kind === 'add' ? op.text : applyHunks(cur.text, op.hunks, cur.rel) };
          }
        } catch {
          // a patch that would fail has no diff to show; the detail still shows it
        }
      }
      return d;
    },
  };
}

/** Whether one file's part of the patch is in place (see the file comment). */
function fileState(op: V4AOp & { kind: 'add' | 'update' }, now: string | undefined, rel: string): 'done' | 'not-done' | 'unsure' {
  if (op.kind === 'add') return now === undefined ? 'not-done' : now === op.text ? 'done' : 'unsure';
  if (now === undefined) return 'unsure';
  const applies = (h: typeof op.hunks): boolean => {
    try {
      applyHunks(now, h, rel);
      return true;
    } catch {
      return false;
    }
  };
  const forward = applies(op.hunks);
  const reverse = applies(reversed(op.hunks));
  if (reverse && !forward) return 'done';
  if (forward && !reverse) return 'not-done';
  return 'unsure';
}

function summary(changes: Change[]): string {
  const parts = changes.map((c) => {
    if (c.op.kind === 'add') return `added ${c.target.rel}`;
    const plus = c.op.hunks.reduce((n, h) => n + h.added, 0);
    const minus = c.op.hunks.reduce((n, h) => n + h.removed, 0);
    return `updated ${c.target.rel} (+${plus} -${minus}${c.notes.length > 0 ? `; ${c.notes.join('; ')}` : ''})`;
  });
  return `applied patch: ${parts.join(', ')}`;
}
