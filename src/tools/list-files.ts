/**
 * list_files {path?, depth?, glob?}: the files and folders below a folder of the workspace,
 * sorted, folders marked with a trailing "/". Ignore files and build folders are honoured as
 * search_files honours them (unless `path` goes into one); the first line counts what was
 * listed and what was not (cap, depth, glob, ignored folders).
 */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { walkIgnoring } from '../workspace/walk-ignoring';
import { compileGlob } from '../workspace/glob';
import { plainResult, str, withPath, type ToolView } from './view';

export const LIST_CAP = 500;
/** Ignored folders named in the first line at most. */
const SKIPPED_NAMED = 10;

/** "List files in <path>"; its result is the listing, shown whole. */
export const listFilesView: ToolView = {
  icon: 'list-tree',
  call(a) {
    const p = str(a.path);
    const g = str(a.glob);
    const d = typeof a.depth === 'number' ? ` to depth ${a.depth}` : '';
    return withPath(a, { title: `List files${p ? ` in ${p}` : ''}${g ? ` matching ${g}` : ''}${d}`, args: [] });
  },
  result: (r) => plainResult(r, 'always'),
};

export interface ListArgs {
  path?: string | null;
  depth?: number | null;
  glob?: string | null;
}

const LIST_ARGS = z.strictObject({
  path: text('Folder relative to the workspace root; default "."').nullish(),
  depth: z.number().int().min(1).describe("How many folder levels to list (1: the folder's own entries); default: all").nullish(),
  glob: text('Only files whose name (or, with a "/", path) matches this glob, e.g. "*.py" or "src/**/*.ts"').nullish(),
});

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder); never listed. */
export function listFilesTool(o: { hidden?: readonly string[] } = {}): Tool<ListArgs> {
  return {
    name: 'list_files',
    description:
      `Lists the files and folders below a folder of the workspace (default: the whole workspace), sorted, one workspace-relative path per line, folders ending in "/". ` +
      `"depth": 1 lists only the folder's own entries (use it first to see the shape of a big tree). "glob" keeps only the files that match (e.g. "*.rs"). ` +
      `Files named by .gitignore/.ignore and build folders (node_modules, target, dist, ...) are left out unless "path" goes inside one. At most ${LIST_CAP} entries; the first line counts what was left out.`,
    args: LIST_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('list_files', ctx.workspace, async () => {
        const p = args.path ?? '.';
        const abs = resolveInWorkspace(ctx.workspace, p, o.hidden);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${p}" does not exist`);
        const base = toRel(ctx.workspace, abs);
        if (!st.isDirectory()) throw new ToolInputError(`"${base}" is a file, not a folder; read it with read_file`);
        const glob = args.glob != null ? compileGlob(args.glob) : undefined;
        const shown: string[] = [];
        let total = 0;
        let files = 0;
        let dirs = 0;
        let notEntered = 0;
        let globMissed = 0;
        const skipped: string[] = [];
        await walkIgnoring(ctx.workspace, abs, {
          hidden: o.hidden,
          ...(args.depth != null ? { maxDepth: args.depth } : {}),
          onSkipped: (rel) => void skipped.push(rel),
          onEntry: (e) => {
            if (e.kind === 'dir') {
              if (glob) return;
              dirs++;
              const deep = args.depth != null && e.depth >= args.depth;
              if (deep) notEntered++;
              total++;
              if (shown.length < LIST_CAP) shown.push(`${e.rel}/${deep ? ' (not listed: deeper than depth)' : ''}`);
              return;
            }
            if (glob && !glob.matches(e.rel, base)) {
              globMissed++;
              return;
            }
            files++;
            total++;
            if (shown.length < LIST_CAP) shown.push(e.rel);
          },
        });
        if (glob && files === 0)
          throw new ToolInputError(
            `the glob ${JSON.stringify(glob.text)} matches none of the ${globMissed} files listed in ${base}; e.g. "*.ts" matches by name at any depth, "src/**/*.ts" by path`,
          );
        const notes: string[] = [];
        if (total > shown.length) notes.push(`${total - shown.length} more not shown (cap ${LIST_CAP}; narrow with "path", "depth" or "glob")`);
        if (notEntered > 0) notes.push(`${notEntered} folders not entered (depth ${args.depth})`);
        if (globMissed > 0) notes.push(`${globMissed} files not matching ${glob?.text}`);
        if (skipped.length > 0) {
          const named = skipped
            .slice(0, SKIPPED_NAMED)
            .map((s) => `${s}/`)
            .join(', ');
          notes.push(`ignored folders not listed: ${named}${skipped.length > SKIPPED_NAMED ? ` and ${skipped.length - SKIPPED_NAMED} more` : ''}`);
        }
        const head = `${base}: ${files} files${glob ? '' : `, ${dirs} folders`}${notes.length ? `; ${notes.join('; ')}` : '; nothing left out'}`;
        if (total === 0) return { content: `${head}\nno files in ${base}` };
        return { content: [head, ...shown].join('\n') };
      }),
  };
}
