/**
 * str_replace {path, old, new}: replaces the one occurrence of an exact text in an existing file
 * of the workspace (offered to every model). `old` must occur exactly once, or the call fails
 * naming how many times it occurs, and nothing is written.
 * NOT idempotent (after the first call `old` may occur again), so a marked call goes to its
 * lookup: "done" when `new` is in place and `old` gone, "not done" when `old` is there and `new`
 * is not; otherwise (both, neither, the file gone) it throws and a person decides.
 */
import type { CallDescription, LookupAnswer, Tool } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { existingText, recordFound, replaceOnce, replacement, replacementState, snippet, textOf, writeRecorded } from './edit-file';
import { currentText } from './preview';
import { writeTarget } from './write-target';
import { clip, str, withPath, type ToolView } from './view';

const Args = z.strictObject({
  path: text('File path relative to the workspace root'),
  old: z.string().describe('The exact text to replace, whitespace and line breaks included; it must occur exactly once in the file'),
  new: z.string().describe('The text to put in its place'),
});
type Args = z.infer<typeof Args>;

/** "Replace in <path>": the old text, then the new. */
export const strReplaceView: ToolView = {
  icon: 'replace',
  unfolded: true,
  writesPath: true,
  call(a) {
    const p = str(a.path) ?? '';
    return withPath(a, {
      title: `Replace in ${p || '?'}`,
      args: [
        { kind: 'code', label: 'old', text: clip(str(a.old) ?? '') },
        { kind: 'code', label: 'new', text: clip(str(a.new) ?? '') },
      ],
    });
  },
};

/** `workspace`: for describe()'s diff; `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function strReplaceTool(o: { workspace?: string; hidden?: readonly string[] } = {}): Tool<Args> {
  return {
    name: 'str_replace',
    description:
      'Changes an existing file of the workspace: replaces the one occurrence of the exact text `old` with `new`. `old` must occur exactly once (include enough surrounding lines); otherwise nothing is written and the error says how many times it occurs.',
    args: Args,
    writes: (args, workspace) => [writeTarget(workspace, args.path, o.hidden).rel],
    run: (args, ctx) =>
      guarded('str_replace', ctx.workspace, async () => {
        const target = writeTarget(ctx.workspace, args.path, o.hidden);
        const before = await existingText(target, 'create new files with write_file');
        const r = replacement(before, args.old, args.new, target.rel);
        await writeRecorded(target, r.text, ctx);
        return { content: `${replacedText(target.rel, args)}\n${snippet(r.text, target.rel, r.first, r.last)}` };
      }),
    async lookup(args, ctx): Promise<LookupAnswer> {
      let target;
      try {
        target = writeTarget(ctx.workspace, args.path, o.hidden);
      } catch (e) {
        // A path the tool refuses: the call wrote nothing, and running it again gives the same error.
        if (e instanceof ToolInputError) return { status: 'not-done' };
        throw e;
      }
      const now = await textOf(target);
      if (now === undefined) throw new Error(`cannot tell whether the replacement in ${target.rel} was made: the file does not exist now`);
      const state = replacementState(now, args.old, args.new);
      if (state === 'done') {
        await recordFound(target, now, ctx);
        return { status: 'done', output: { content: replacedText(target.rel, args) } };
      }
      if (state === 'not-done') return { status: 'not-done' };
      throw new Error(`cannot tell whether the replacement in ${target.rel} was made: ${unsureWhy(now, args.old)}`);
    },
    describe(args) {
      const d: CallDescription = { title: strReplaceView.call(args).title, detail: `old:\n${args.old}\n\nnew:\n${args.new}` };
      const cur = o.workspace ? currentText(o.workspace, args.path, o.hidden) : undefined;
      if (cur) {
        try {
          d.diff = { path: cur.rel, before: cur.text, after: replaceOnce(cur.text, args.old, args.new, cur.rel) };
        } catch {
          // a replacement that would fail has no diff to show; the detail still shows it
        }
      }
      return d;
    },
  };
}

export function unsureWhy(now: string, oldText: string): string {
  return now.includes(oldText) ? 'both the old and the new text are in the file now' : 'neither the old nor the new text is in the file now';
}

function replacedText(rel: string, a: Args): string {
  const lines = (s: string): number => (s === '' ? 0 : s.split('\n').length);
  return `replaced in ${rel}: ${lines(a.old)} line(s) with ${lines(a.new)}`;
}
