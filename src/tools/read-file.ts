/**
 * read_file {path, start_line?, line_count?}: a window of one file's lines, each numbered.
 * The default window is the first WINDOW_LINES lines or READ_CAP bytes, whichever is smaller;
 * the first line of the result names the lines shown, how many the file has and which were
 * not shown. Only a regular file, and only the bytes needed are read (line-window.ts).
 */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { readLineWindow, type LineWindow } from './line-window';
import { plainResult, str, withPath, type ToolView } from './view';

export const READ_CAP = 100_000;
export const WINDOW_LINES = 2_000;
/** After the window, lines are counted for at most this many more bytes. */
export const COUNT_SCAN = 16 * 1024 * 1024;

/** "Read <path>" (with its lines when a range is given); its result is the numbered lines, shown whole. */
export const readFileView: ToolView = {
  icon: 'file',
  call(a) {
    const start = typeof a.start_line === 'number' ? a.start_line : undefined;
    const count = typeof a.line_count === 'number' ? a.line_count : undefined;
    const range = start !== undefined || count !== undefined ? ` lines ${start ?? 1}${count !== undefined ? `-${(start ?? 1) + count - 1}` : '-'}` : '';
    return withPath(a, { title: `Read ${str(a.path) ?? '?'}${range}`, args: [] });
  },
  result: (r) => plainResult(r, 'always'),
};

export interface ReadArgs {
  path: string;
  start_line?: number | null;
  line_count?: number | null;
}

const READ_ARGS = z.strictObject({
  path: text('File path relative to the workspace root'),
  start_line: z.number().int().min(1).describe('The first line to show (1-based; default 1)').nullish(),
  line_count: z
    .number()
    .int()
    .min(1)
    .max(WINDOW_LINES)
    .describe(`How many lines to show (default and at most ${WINDOW_LINES}; fewer when they pass ${READ_CAP} bytes)`)
    .nullish(),
});

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function readFileTool(o: { hidden?: readonly string[] } = {}): Tool<ReadArgs> {
  return {
    name: 'read_file',
    description:
      `Returns lines of one file of the workspace, each as "<number>\\t<text>", after a first line saying which lines are shown of how many. ` +
      `By default the first ${WINDOW_LINES} lines (at most ${READ_CAP} bytes); give start_line and line_count to read another part.`,
    args: READ_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('read_file', ctx.workspace, async () => {
        const p = args.path;
        const abs = resolveInWorkspace(ctx.workspace, p, o.hidden);
        const rel = toRel(ctx.workspace, abs);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${rel}" does not exist; list the files with list_files`);
        if (st.isDirectory()) throw new ToolInputError(`"${rel}" is a folder; list it with list_files`);
        const start = args.start_line ?? 1;
        const w = await readLineWindow(abs, rel, { start, count: args.line_count ?? WINDOW_LINES, maxBytes: READ_CAP, scanBytes: COUNT_SCAN });
        if (w.binary) return { content: `${rel} is a binary file (${w.size} bytes); it is not shown` };
        if (w.total === 0) return { content: `${rel} is empty (0 lines)` };
        if (w.lines.length === 0) {
          const has = w.total !== undefined ? `${w.total} lines` : `more than ${w.counted} lines`;
          throw new ToolInputError(
            `start_line ${start} is past the end of ${rel}, which has ${has}; start at ${Math.max(1, (w.total ?? w.counted) - 50)} to read its end`,
          );
        }
        return { content: [header(rel, w), ...w.lines.map((l, i) => `${w.first + i}\t${l}`)].join('\n') };
      }),
  };
}

/** "<rel>: lines 10-49 of 1,200; not shown: 1-9, 50-1,200" */
function header(rel: string, w: LineWindow): string {
  const last = w.first + w.lines.length - 1;
  const of = w.total !== undefined ? `${w.total}` : `at least ${w.counted} (${w.size} bytes; not counted further)`;
  const notShown: string[] = [];
  if (w.first > 1) notShown.push(w.first === 2 ? '1' : `1-${w.first - 1}`);
  if (w.total === undefined) notShown.push(`${last + 1}-end`);
  else if (last < w.total) notShown.push(last + 1 === w.total ? `${w.total}` : `${last + 1}-${w.total}`);
  const cut = notShown.length === 0 ? 'the whole file' : `not shown: lines ${notShown.join(', ')}`;
  const long = w.cutFirst ? `; line ${w.first} is longer than ${READ_CAP} bytes: only its first ${Buffer.byteLength(w.lines[0])} bytes are shown` : '';
  return `${rel}: lines ${w.first}-${last} of ${of}; ${cut}${long}`;
}
