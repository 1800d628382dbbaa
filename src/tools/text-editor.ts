/**
 * str_replace_based_edit_tool: Anthropic's text editor tool, in the shape Claude 4 models are
 * trained on (the built-in type text_editor_20250728, sent as such by anthropic-request.ts), run
 * in our loop like any tool. Commands:
 *   view {path, view_range?: [start, end]}: the file's lines, numbered (end -1: to the end);
 *   str_replace {path, old_str, new_str}: replace the one occurrence of old_str (edit-file.ts);
 *   create {path, file_text}: create or replace a whole file;
 *   insert {path, insert_line, insert_text}: insert after line insert_line (0: at the top).
 * Offered to Anthropic's models only. NOT idempotent (str_replace, insert), so a marked call goes
 * to its lookup: view is read-only ("not done": running it again is harmless); create is done
 * when the file holds file_text, else not done (running it again gives the same file);
 * str_replace as str_replace's lookup; insert is "not done" when the text is not at its place
 * and unsure when it is (the file may have held those lines before).
 */
import type { CallDescription, LookupAnswer, Tool, ToolContext, ToolOutput } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { TEXT_EDITOR_NAME } from '../core/tool-schema';
import { guarded, text } from './guarded';
import { existingText, recordFound, replaceOnce, replacementState, textOf, writeRecorded } from './edit-file';
import { currentText } from './preview';
import { readRegularFile } from './regular-file';
import { writeTarget, type WriteTarget } from './write-target';
import { clip, str, withPath, type ToolView } from './view';
import { unsureWhy } from './str-replace';
import { wroteText } from './write-file';
import { insertAt, numberedView } from './text-lines';

const Args = z.object({
  command: z.enum(['view', 'str_replace', 'create', 'insert']).describe('What to do'),
  path: text('File path relative to the workspace root'),
  view_range: z
    .array(z.number().int())
    .length(2)
    .optional()
    .describe('view: [first line, last line], 1-based and inclusive; -1 as the last line reads to the end'),
  old_str: z.string().optional().describe('str_replace: the exact text to replace; it must occur exactly once'),
  new_str: z.string().optional().describe('str_replace: the text to put in its place'),
  file_text: z.string().optional().describe('create: the whole content of the file'),
  insert_line: z.number().int().optional().describe('insert: the line after which to insert (0: at the top)'),
  insert_text: z.string().optional().describe('insert: the text to insert'),
});
type Args = z.infer<typeof Args>;

const VERBS: Record<string, string> = { view: 'View', str_replace: 'Replace in', create: 'Create', insert: 'Insert into' };

/** "View <path>", "Replace in <path>", "Create <path>", "Insert into <path>". */
export const textEditorView: ToolView = {
  icon: 'edit',
  unfolded: true,
  writesPath: true,
  call(a) {
    const p = str(a.path) ?? '?';
    const c = str(a.command) ?? '';
    const blocks = (['old_str', 'new_str', 'file_text', 'insert_text'] as const)
      .filter((k) => typeof a[k] === 'string')
      .map((k) => ({ kind: 'code' as const, label: k, text: clip(str(a[k]) ?? '') }));
    return withPath(a, { title: `${VERBS[c] ?? c} ${p}`, args: blocks });
  },
};

function need<K extends keyof Args>(a: Args, k: K): NonNullable<Args[K]> {
  const v = a[k];
  if (v === undefined || v === null) throw new ToolInputError(`the ${a.command} command needs the argument "${String(k)}"`);
  return v as NonNullable<Args[K]>;
}

/** The new text of the file a write command gives, from its current text (undefined: it does not exist). */
function edited(a: Args, before: string | undefined, rel: string): string {
  switch (a.command) {
    case 'create':
      return need(a, 'file_text');
    case 'str_replace':
      if (before === undefined) throw new ToolInputError(`"${rel}" does not exist; create it with the create command`);
      return replaceOnce(before, need(a, 'old_str'), a.new_str ?? '', rel);
    case 'insert':
      if (before === undefined) throw new ToolInputError(`"${rel}" does not exist; create it with the create command`);
      return insertAt(before, need(a, 'insert_line'), need(a, 'insert_text'), rel).text;
    case 'view':
      throw new Error('view writes nothing');
  }
}

/** `workspace`: for describe()'s diff; `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function textEditorTool(o: { workspace?: string; hidden?: readonly string[] } = {}): Tool<Args> {
  return {
    name: TEXT_EDITOR_NAME,
    vendor: 'anthropic',
    description:
      'Views and edits files of the workspace. Commands: view (path, optional view_range [first, last], numbered lines), str_replace (path, old_str occurring exactly once, new_str), create (path, file_text), insert (path, insert_line, insert_text).',
    args: Args,
    writes: (args, workspace) => (args.command === 'view' ? [] : [writeTarget(workspace, args.path, o.hidden).rel]),
    run: (args, ctx) =>
      guarded(TEXT_EDITOR_NAME, ctx.workspace, async () => {
        if (args.command === 'view') return view(args, ctx, o.hidden);
        const target = writeTarget(ctx.workspace, args.path, o.hidden);
        const before = args.command === 'create' ? undefined : await existingText(target, 'create it with the create command');
        const after = edited(args, before, target.rel);
        const buf = await writeRecorded(target, after, ctx);
        return { content: doneText(args, target.rel, buf) };
      }),
    async lookup(args, ctx): Promise<LookupAnswer> {
      if (args.command === 'view') return { status: 'not-done' };
      let target: WriteTarget;
      try {
        target = writeTarget(ctx.workspace, args.path, o.hidden);
        if (args.command !== 'create') need(args, args.command === 'insert' ? 'insert_text' : 'old_str');
      } catch (e) {
        // Arguments the tool refuses: the call wrote nothing, and running it again gives the same error.
        if (e instanceof ToolInputError) return { status: 'not-done' };
        throw e;
      }
      const now = await textOf(target);
      const found = async (): Promise<LookupAnswer> => {
        await recordFound(target, now!, ctx);
        return { status: 'done', output: { content: doneText(args, target.rel, Buffer.from(now!, 'utf8')) } };
      };
      if (args.command === 'create') return now === args.file_text ? found() : { status: 'not-done' };
      if (now === undefined) throw new Error(`cannot tell whether the ${args.command} of ${target.rel} happened: the file does not exist now`);
      if (args.command === 'str_replace') {
        const oldStr = args.old_str!;
        const newStr = args.new_str ?? '';
        const state = replacementState(now, oldStr, newStr);
        if (state === 'done') return found();
        if (state === 'not-done') return { status: 'not-done' };
        throw new Error(`cannot tell whether the replacement in ${target.rel} was made: ${unsureWhy(now, oldStr)}`);
      }
      const line = args.insert_line ?? 0;
      const there = (() => {
        try {
          return insertAt(now, line, args.insert_text!, target.rel).alreadyThere;
        } catch {
          return false; // the line is past the end now: the text is not at its place
        }
      })();
      if (!there) return { status: 'not-done' };
      throw new Error(`cannot tell whether the insert into ${target.rel} happened: the text is after line ${line}, but the file may have held it there before`);
    },
    describe(args) {
      const d: CallDescription = { title: textEditorView.call(args).title, detail: JSON.stringify(args, null, 2) };
      const cur = o.workspace && args.command !== 'view' ? currentText(o.workspace, args.path, o.hidden) : undefined;
      if (cur) {
        try {
          d.diff = { path: cur.rel, before: cur.text, after: edited(args, args.command === 'create' ? undefined : cur.text, cur.rel) };
        } catch {
          // an edit that would fail has no diff to show; the detail still shows it
        }
      }
      return d;
    },
  };
}

async function view(a: Args, ctx: ToolContext, hidden: readonly string[] | undefined): Promise<ToolOutput> {
  const abs = resolveInWorkspace(ctx.workspace, a.path, hidden);
  const rel = toRel(ctx.workspace, abs);
  const { bytes } = await readRegularFile(abs, rel).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolInputError(`"${rel}" does not exist`);
    throw e;
  });
  if (bytes.subarray(0, 8000).includes(0)) return { content: `${rel} is a binary file (${bytes.length} bytes); it is not shown` };
  const range = a.view_range ? ([a.view_range[0], a.view_range[1]] as [number, number]) : undefined;
  return { content: numberedView(bytes.toString('utf8'), rel, range) };
}

function doneText(a: Args, rel: string, buf: Buffer): string {
  if (a.command === 'create') return wroteText(rel, buf);
  if (a.command === 'insert') return `inserted into ${rel} after line ${a.insert_line ?? 0}`;
  return `replaced in ${rel}`;
}
