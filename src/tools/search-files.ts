/** search_files {query, path?}: literal, case-sensitive search of the workspace's text files. */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { walkFiles } from '../workspace/walk';
import { assertRegular, readRegularFile } from './regular-file';
import { plainResult, str, type ToolView } from './view';

export const MATCH_CAP = 200;
const LINE_CAP = 240;
const FILE_CAP = 1_000_000;

/** 'Search for "<query>" in <path>'; its result is the matching lines, shown whole. */
export const searchFilesView: ToolView = {
  icon: 'search',
  call(a) {
    const q = str(a.query) ?? str(a.pattern) ?? '';
    const p = str(a.path);
    return { title: `Search for "${q}"${p ? ` in ${p}` : ''}`, args: [] };
  },
  result: (r) => plainResult(r, 'always'),
};

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder); never searched. */
export function searchFilesTool(o: { hidden?: readonly string[] } = {}): Tool<{ query: string; path?: string | null }> {
  return {
    name: 'search_files',
    description: `Searches the workspace's text files for a literal, case-sensitive string; answers "path:line: text" per matching line (at most ${MATCH_CAP}). node_modules and .git are skipped.`,
    args: z.strictObject({
      query: text('The exact text to find (not a regular expression)').refine((q) => !q.includes('\n'), {
        error: 'spans several lines; search for one line of text',
      }),
      path: text('A folder or file to search in, relative to the workspace root; default "."').nullish(),
    }),
    readOnly: true,
    run: (args, ctx) =>
      guarded('search_files', ctx.workspace, async () => {
        const query = args.query;
        const p = args.path ?? '.';
        const abs = resolveInWorkspace(ctx.workspace, p, o.hidden);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${p}" does not exist`);
        if (!st.isDirectory()) assertRegular(st, toRel(ctx.workspace, abs));
        const files = st.isDirectory() ? await walkFiles(ctx.workspace, abs, o.hidden) : [toRel(ctx.workspace, abs)];
        const hits: string[] = [];
        let total = 0;
        for (const rel of files) {
          const text = await readText(ctx.workspace, rel, o.hidden);
          if (text === undefined || !text.includes(query)) continue;
          const lines = text.split(/\r?\n/);
          for (let i = 0; i < lines.length; i++) {
            if (!lines[i].includes(query)) continue;
            total++;
            if (hits.length < MATCH_CAP) hits.push(`${rel}:${i + 1}: ${clip(lines[i].trim())}`);
          }
        }
        if (total === 0) return { content: `no matches for ${JSON.stringify(query)} in ${toRel(ctx.workspace, abs)}` };
        return { content: hits.join('\n') + (total > hits.length ? `\n... ${total - hits.length} more matches` : '') };
      }),
  };
}

/**
 * A file's text, or undefined for a binary file, a big one, one that cannot be read (a broken
 * link), one that is not a regular file (a named pipe is never opened for a blocking read), a
 * symlink that leads out of the workspace or into a hidden folder (its target is never read).
 */
async function readText(workspace: string, rel: string, hidden: readonly string[] | undefined): Promise<string | undefined> {
  try {
    const abs = resolveInWorkspace(workspace, rel, hidden);
    const { bytes, size } = await readRegularFile(abs, rel, { max: FILE_CAP + 1, skipAbove: FILE_CAP });
    if (size > FILE_CAP || bytes.length > FILE_CAP) return undefined;
    return bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

function clip(line: string): string {
  return line.length <= LINE_CAP ? line : `${line.slice(0, LINE_CAP)}...`;
}
