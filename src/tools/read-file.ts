/**
 * read_file {path}: the text of one file of the workspace. Only a regular file, and only the
 * bytes shown are read (regular-file.ts): a 1 GB file costs what its first 100 KB do.
 */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { readRegularFile } from './regular-file';
import { plainResult, str, withPath, type ToolView } from './view';

export const READ_CAP = 100_000;

/** "Read <path>"; its result is the file's text, shown whole. */
export const readFileView: ToolView = {
  icon: 'file',
  call: (a) => withPath(a, { title: `Read ${str(a.path) ?? '?'}`, args: [] }),
  result: (r) => plainResult(r, 'always'),
};

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function readFileTool(o: { hidden?: readonly string[] } = {}): Tool<{ path: string }> {
  return {
    name: 'read_file',
    description: `Returns the text of one file of the workspace (at most ${READ_CAP} bytes are shown).`,
    args: z.strictObject({ path: text('File path relative to the workspace root') }),
    readOnly: true,
    run: (args, ctx) =>
      guarded('read_file', ctx.workspace, async () => {
        const p = args.path;
        const abs = resolveInWorkspace(ctx.workspace, p, o.hidden);
        const rel = toRel(ctx.workspace, abs);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${rel}" does not exist; list the files with list_files`);
        if (st.isDirectory()) throw new ToolInputError(`"${rel}" is a folder; list it with list_files`);
        // One byte past the cap tells whether the cut falls inside a UTF-8 sequence.
        const { bytes, size } = await readRegularFile(abs, rel, { max: READ_CAP + 1 });
        if (bytes.subarray(0, 8000).includes(0)) return { content: `${rel} is a binary file (${size} bytes); it is not shown` };
        if (size <= READ_CAP && bytes.length <= READ_CAP) return { content: bytes.toString('utf8') };
        // Cut at a character boundary: drop a trailing partial UTF-8 sequence.
        let end = Math.min(READ_CAP, bytes.length);
        while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
        const total = Math.max(size, bytes.length);
        return {
          content: `${bytes.subarray(0, end).toString('utf8')}\n... [truncated: ${rel} is ${total} bytes; the first ${end} are shown, ${total - end} are not]`,
        };
      }),
  };
}
