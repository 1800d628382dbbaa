/**
 * str_replace_based_edit_tool: Anthropic's text editor tool, in the shape Claude 4 models are
 * trained on (the built-in type text_editor_20250728, sent as such by anthropic-request.ts), run
 * in our loop like any tool. Commands:
 *   view {path, view_range?: [start, end]}: the file's lines, numbered (end -1: to the end), or
 *     a folder's files and folders two levels deep (list_files with depth 2);
 *   str_replace {path, old_str, new_str}: replace the one occurrence of old_str (edit-file.ts),
 *     showing the lines around the result;
 *   create {path, file_text}: create a new file (an existing one is refused, as Anthropic's
 *     reference tool refuses it);
 *   insert {path, insert_line, insert_text (or new_str)}: insert after line insert_line (0: at the top).
 * As Anthropic's docs show paths absolute ("/repo/app.py"), an absolute path inside the workspace
 * is taken as the path relative to it; one outside is refused as any outside path.
 * Offered to Anthropic's models only. NOT idempotent (str_replace, insert), so a marked call goes
 * to its lookup: view is read-only ("not done": running it again is harmless); create is done
 * when the file holds file_text, else not done (running it again gives the same file);
 * str_replace as str_replace's lookup; insert is "not done" when the text is not at its place
 * and unsure when it is (the file may have held those lines before).
 */
import type { CallDescription, LookupAnswer, Tool, ToolContext, ToolOutput } from '../agent/tool';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { TEXT_EDITOR_NAME } from '../core/tool-schema';
import { guarded, text } from './guarded';
import { existingText, recordFound, replacement, replacementState, snippet, textOf, writeRecorded } from './edit-file';
import { currentText } from './preview';
import { readRegularFile } from './regular-file';
import { writeTarget, type WriteTarget } from './write-target';
import { clip, str, withPath, type ToolView } from './view';
import { unsureWhy } from './str-replace';
import { wroteText } from './write-file';
import { insertAt, numberedView } from './text-lines';
import { listFilesTool } from './list-files';

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
  // Older versions of Anthropic's tool (and models trained on them) give insert's text as new_str.
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

/** `a` with an absolute path inside `workspace` made relative to it ("/repo/a.py" in /repo: "a.py"); any other path as it is. */
function inWorkspace(a: Args, workspace: string): Args {
  if (!path.isAbsolute(a.path)) return a;
  const rel = path.relative(path.resolve(workspace), path.resolve(a.path));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return a;
  return { ...a, path: rel === '' ? '.' : rel.split(path.sep).join('/') };
}

/** insert's text: insert_text, or new_str as older versions of the tool named it. */
function insertText(a: Args): string {
  if (a.insert_text === undefined && a.new_str !== undefined) return a.new_str;
  return need(a, 'insert_text');
}

/** The new text of the file a write command gives, from its current text (undefined: it does not exist), and the lines it changed. */
function edited(a: Args, before: string | undefined, rel: string): { text: string; first?: number; last?: number } {
  switch (a.command) {
    case 'create':
      if (before !== undefined)
        throw new ToolInputError(
          `create does not overwrite: "${rel}" exists already, and nothing was changed. Change it with str_replace or insert (view it first)`,
        );
      return { text: need(a, 'file_text') };
    case 'str_replace':
      if (before === undefined) throw new ToolInputError(`"${rel}" does not exist; create it with the create command`);
      return replacement(before, need(a, 'old_str'), a.new_str ?? '', rel);
    case 'insert': {
      if (before === undefined) throw new ToolInputError(`"${rel}" does not exist; create it with the create command`);
      const ins = insertText(a);
      const line = need(a, 'insert_line');
      const lines = ins === '' ? 0 : ins.replace(/\n$/, '').split('\n').length;
      return { text: insertAt(before, line, ins, rel).text, first: line + 1, last: line + Math.max(1, lines) };
    }
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
    writes: (args, workspace) => (args.command === 'view' ? [] : [writeTarget(workspace, inWorkspace(args, workspace).path, o.hidden).rel]),
    run: (given, ctx) =>
      guarded(TEXT_EDITOR_NAME, ctx.workspace, async () => {
        const args = inWorkspace(given, ctx.workspace);
        if (args.command === 'view') return view(args, ctx, o.hidden);
        const target = writeTarget(ctx.workspace, args.path, o.hidden);
        const before = args.command === 'create' ? await textOf(target) : await existingText(target, 'create it with the create command');
        const after = edited(args, before, target.rel);
        const buf = await writeRecorded(target, after.text, ctx);
        const shown = after.first !== undefined ? `\n${snippet(after.text, target.rel, after.first, after.last ?? after.first)}` : '';
        return { content: doneText(args, target.rel, buf) + shown };
      }),
    async lookup(given, ctx): Promise<LookupAnswer> {
      const args = inWorkspace(given, ctx.workspace);
      if (args.command === 'view') return { status: 'not-done' };
      let target: WriteTarget;
      try {
        target = writeTarget(ctx.workspace, args.path, o.hidden);
        if (args.command === 'insert') insertText(args);
        else if (args.command !== 'create') need(args, 'old_str');
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
          return insertAt(now, line, insertText(args), target.rel).alreadyThere;
        } catch {
          return false; // the line is past the end now: the text is not at its place
        }
      })();
      if (!there) return { status: 'not-done' };
      throw new Error(`cannot tell whether the insert into ${target.rel} happened: the text is after line ${line}, but the file may have held it there before`);
    },
    describe(given) {
      const d: CallDescription = { title: textEditorView.call(given).title, detail: JSON.stringify(given, null, 2) };
      const args = o.workspace ? inWorkspace(given, o.workspace) : given;
      const cur = o.workspace && args.command !== 'view' ? currentText(o.workspace, args.path, o.hidden) : undefined;
      if (cur) {
        try {
          d.diff = { path: cur.rel, before: cur.text, after: edited(args, cur.text, cur.rel).text };
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
  if ((await fs.stat(abs).catch(() => undefined))?.isDirectory()) {
    // Anthropic's tool lists a folder two levels deep (Claude's usual first call is a view of ".").
    if (a.view_range) throw new ToolInputError(`"${rel}" is a folder; view_range is for files. View it without view_range to list it`);
    return listFilesTool({ ...(hidden ? { hidden } : {}) }).run({ path: a.path, depth: 2 }, ctx);
  }
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
