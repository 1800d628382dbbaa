/** list_files {path?}: the files below a folder of the workspace, one per line, sorted. */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { walkFiles } from '../workspace/walk';
import { plainResult, str, withPath, type ToolView } from './view';

export const LIST_CAP = 500;

/** "List files in <path>"; its result is the listing, shown whole. */
export const listFilesView: ToolView = {
  icon: 'list-tree',
  call(a) {
    const p = str(a.path);
    return withPath(a, { title: `List files${p ? ` in ${p}` : ''}`, args: [] });
  },
  result: (r) => plainResult(r, 'always'),
};

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder); never listed. */
export function listFilesTool(o: { hidden?: readonly string[] } = {}): Tool<{ path?: string | null }> {
  return {
    name: 'list_files',
    description: `Lists the files below a folder of the workspace (default: the whole workspace), recursively, one workspace-relative path per line, sorted; node_modules and .git are skipped. At most ${LIST_CAP} entries are shown.`,
    args: z.strictObject({ path: text('Folder relative to the workspace root; default "."').nullish() }),
    readOnly: true,
    run: (args, ctx) =>
      guarded('list_files', ctx.workspace, async () => {
        const p = args.path ?? '.';
        const abs = resolveInWorkspace(ctx.workspace, p, o.hidden);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${p}" does not exist`);
        if (!st.isDirectory()) throw new ToolInputError(`"${toRel(ctx.workspace, abs)}" is a file, not a folder; read it with read_file`);
        const files = await walkFiles(ctx.workspace, abs, o.hidden);
        if (files.length === 0) return { content: `no files in ${toRel(ctx.workspace, abs)}` };
        const shown = files.slice(0, LIST_CAP);
        const more = files.length - shown.length;
        return { content: shown.join('\n') + (more > 0 ? `\n... ${more} more` : '') };
      }),
  };
}
