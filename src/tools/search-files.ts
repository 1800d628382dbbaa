/**
 * search_files {query, path?, regex?, glob?, case?, context?}: searches the workspace's text
 * files with ripgrep when there is one (search/find-ripgrep.ts) and with our own walker when
 * not (search/search-fallback.ts); both honour .gitignore, .ignore and .rgignore (with or
 * without a .git folder) and skip the usual build folders unless `path` goes into one.
 * Results are grouped by file, sorted by path, capped (search/format-hits.ts).
 */
import * as fs from 'node:fs/promises';
import type { Tool } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { assertRegular } from './regular-file';
import { plainResult, str, type ToolView } from './view';
import { findRipgrep, type RipgrepOptions } from './search/find-ripgrep';
import { searchWithRipgrep } from './search/ripgrep';
import { searchWithFallback } from './search/search-fallback';
import { formatHits, MATCH_CAP } from './search/format-hits';
import { compileGlob } from '../workspace/glob';
import { BUILD_FOLDERS } from '../workspace/ignore-rules';
import type { SearchQuery } from './search/types';
import { anyFileMatches } from './search/glob-check';

export { MATCH_CAP };
export const CONTEXT_CAP = 10;

/** 'Search for "<query>" in <path>'; its result is the matching lines, shown whole. */
export const searchFilesView: ToolView = {
  icon: 'search',
  call(a) {
    const q = str(a.query) ?? str(a.pattern) ?? '';
    const p = str(a.path);
    const g = str(a.glob);
    return { title: `Search for ${a.regex === true ? '/' + q + '/' : `"${q}"`}${p ? ` in ${p}` : ''}${g ? ` (${g})` : ''}`, args: [] };
  },
  result: (r) => plainResult(r, 'always'),
};

export interface SearchArgs {
  query: string;
  path?: string | null;
  regex?: boolean | null;
  glob?: string | null;
  case?: 'smart' | 'insensitive' | 'sensitive' | null;
  context?: number | null;
}

const SEARCH_ARGS = z.strictObject({
  query: text('The text to find on one line; a regular expression when "regex" is true').refine((q) => !q.includes('\n'), {
    error: 'spans several lines; search for one line of text',
  }),
  path: text('A folder or file to search in, relative to the workspace root; default "."').nullish(),
  regex: z.boolean().describe('true: "query" is a regular expression (Rust/ripgrep syntax); default false: literal text').nullish(),
  glob: text('Only files whose name (or, with a "/", path) matches this glob, e.g. "*.rs" or "src/**/*.ts"').nullish(),
  case: z
    .enum(['smart', 'insensitive', 'sensitive'])
    .describe('Case: "sensitive" (default), "insensitive", or "smart" (insensitive unless the query has a capital)')
    .nullish(),
  context: z.number().int().min(0).max(CONTEXT_CAP).describe(`Lines to show before and after each match (0-${CONTEXT_CAP}; default 0)`).nullish(),
});

/**
 * `hidden`: the folders the tools treat as outside the workspace (the run's state folder); never searched.
 * `ripgrep`: which rg to run (find-ripgrep.ts); `{ path: 'off' }` forces the fallback.
 */
export function searchFilesTool(o: { hidden?: readonly string[]; ripgrep?: RipgrepOptions } = {}): Tool<SearchArgs> {
  const hidden = o.hidden ?? [];
  let rg: string | undefined | null = null;
  return {
    name: 'search_files',
    description:
      `Searches the workspace's text files for a line of text (literal by default; "regex": true for a regular expression), like ripgrep. ` +
      `Answers the totals first, then each file with its matching lines as "  <line>: text". At most ${MATCH_CAP} matching lines are shown, and the first line says how many were not. ` +
      `Files named by .gitignore/.ignore and build folders (${BUILD_FOLDERS.slice(0, 8).join(', ')}, ...) are skipped unless "path" goes inside one.`,
    args: SEARCH_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('search_files', ctx.workspace, async () => {
        const p = args.path ?? '.';
        const abs = resolveInWorkspace(ctx.workspace, p, hidden);
        const st = await fs.stat(abs).catch(() => undefined);
        if (!st) throw new ToolInputError(`"${p}" does not exist; list the folders with list_files`);
        const startRel = toRel(ctx.workspace, abs);
        if (!st.isDirectory()) assertRegular(st, startRel);
        if (args.glob != null) compileGlob(args.glob); // a glob that cannot compile is named before any search
        const q: SearchQuery = {
          pattern: args.query,
          regex: args.regex === true,
          caseMode: args.case ?? 'sensitive',
          context: args.context ?? 0,
          startRel,
          hidden,
          ...(args.glob != null ? { glob: args.glob } : {}),
        };
        if (rg === null) rg = findRipgrep(o.ripgrep);
        const found = rg
          ? await searchWithRipgrep(rg, ctx.workspace, q, ctx.signal)
          : await searchWithFallback(ctx.workspace, q, !st.isDirectory(), ctx.signal);
        const what = `${q.regex ? 'the regular expression' : 'the text'} ${JSON.stringify(q.pattern)} in ${startRel}${q.glob ? ` (files matching ${q.glob})` : ''}`;
        if (found.files.length === 0) {
          if (q.glob !== undefined && st.isDirectory() && !(await anyFileMatches(ctx.workspace, q, rg))) {
            throw new ToolInputError(
              `the glob ${JSON.stringify(q.glob)} matches no file searched in ${startRel}; e.g. "*.ts" matches by name at any depth, "src/**/*.ts" by path`,
            );
          }
          return { content: `no matches for ${what} (ignored files and build folders were not searched; give "path" to search inside one)` };
        }
        return { content: formatHits(found, what) };
      }),
  };
}
