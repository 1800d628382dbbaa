/** read_file {path}: the text of one file of the workspace. */
import * as fs from 'node:fs/promises';
import type { Tool } from '../../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace-paths';
import { z } from 'zod';
import { guarded, text } from './guarded';

export const READ_CAP = 100_000;

export function readFileTool(): Tool<{ path: string }> {
  return {
    name: 'read_file',
    description: `Returns the text of one file of the workspace (at most ${READ_CAP} bytes are shown).`,
    args: z.strictObject({ path: text('File path relative to the workspace root') }),
    readOnly: true,
    run: (args, ctx) =>
      guarded('read_file', ctx.workspace, async () => {
        const p = args.path;
        const abs = resolveInWorkspace(ctx.workspace, p);
        const rel = toRel(ctx.workspace, abs);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${rel}" does not exist; list the files with list_files`);
        if (st.isDirectory()) throw new ToolInputError(`"${rel}" is a folder; list it with list_files`);
        const buf = await fs.readFile(abs);
        if (buf.subarray(0, 8000).includes(0)) return { content: `${rel} is a binary file (${buf.length} bytes); it is not shown` };
        if (buf.length <= READ_CAP) return { content: buf.toString('utf8') };
        // Cut at a character boundary: drop a trailing partial UTF-8 sequence.
        let end = READ_CAP;
        while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
        return { content: `${buf.subarray(0, end).toString('utf8')}\n... [truncated: ${rel} is ${buf.length} bytes; the first ${end} are shown]` };
      }),
  };
}
