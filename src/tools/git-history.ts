/**
 * The history tools, read-only views of the workspace's git history (git-command.ts runs git):
 *   git_log {path, start_line?, end_line?, max_count?}: the commits that changed a file, or with a
 *     line range the commits that changed those lines, each with its diff (git log -L);
 *   git_blame {path, start_line, end_line}: who last changed each line of a range, and in which commit;
 *   git_show {commit, path?}: a commit's message and diff (of one file with path);
 *   git_log_search {text, path?, max_count?}: the commits that added or removed a text (git log -S).
 * Paths are checked like every tool's (inside the workspace, not in the run's state folder).
 */
import * as path from 'node:path';
import type { Tool, ToolContext } from '../agent/tool';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { gitResultText, runGit } from './git-command';
import { readRegularFile } from './regular-file';
import { linesOf } from './text-lines';
import { plainResult, str, withPath, type ToolView } from './view';

const LOG_FORMAT = '--format=%h %ad %an%n    %s';
const MAX_COUNT = 20;
const PLAIN = ['--no-ext-diff', '--no-textconv', '--no-color', '--date=short'];

const relArg = (what: string): z.ZodString => text(`${what}, relative to the workspace root`);
const line = (what: string): z.ZodNumber => z.number().int().min(1).describe(what);
const maxCount = z.number().int().min(1).max(200).optional().describe(`How many commits at most (default ${MAX_COUNT})`);

/** The workspace-relative path git is given, checked like every tool's path. */
function relPath(ctx: ToolContext, p: string, hidden: readonly string[] | undefined): string {
  const rel = toRel(ctx.workspace, resolveInWorkspace(ctx.workspace, p, hidden));
  if (rel === '.') return '.';
  return rel;
}

/** The range as git takes it ("start,end"), checked against the file's lines as they are in the workspace. */
async function range(ctx: ToolContext, rel: string, start: number | undefined, end: number | undefined): Promise<string | undefined> {
  if (start === undefined && end === undefined) return undefined;
  if (start === undefined || end === undefined) throw new ToolInputError('give both start_line and end_line, or neither');
  if (end < start) throw new ToolInputError(`end_line ${end} is before start_line ${start}`);
  const { bytes } = await readRegularFile(path.join(ctx.workspace, rel), rel);
  const n = linesOf(bytes.toString('utf8')).length;
  if (end > n) throw new ToolInputError(`end_line ${end} is past the end of "${rel}" (${n} lines)`);
  return `${start},${end}`;
}

const lines = (a: Record<string, unknown>): string => (typeof a.start_line === 'number' ? ` lines ${String(a.start_line)}-${String(a.end_line)}` : '');

export const gitLogView: ToolView = {
  icon: 'history',
  call: (a) => withPath(a, { title: `History of ${str(a.path) ?? '?'}${lines(a)}`, args: [] }),
  result: (r) => plainResult(r, 'always'),
};
export const gitBlameView: ToolView = {
  icon: 'person',
  call: (a) => withPath(a, { title: `Blame ${str(a.path) ?? '?'}${lines(a)}`, args: [] }),
  result: (r) => plainResult(r, 'always'),
};
export const gitShowView: ToolView = {
  icon: 'git-commit',
  call: (a) => withPath(a, { title: `Show commit ${str(a.commit) ?? '?'}`, args: [] }),
  result: (r) => plainResult(r, 'always'),
};
export const gitLogSearchView: ToolView = {
  icon: 'search',
  call: (a) => withPath(a, { title: `Commits adding or removing "${str(a.text) ?? '?'}"`, args: [] }),
  result: (r) => plainResult(r, 'always'),
};

const LOG_ARGS = z.strictObject({
  path: relArg('The file'),
  start_line: line('First line of the range').optional(),
  end_line: line('Last line of the range').optional(),
  max_count: maxCount,
});

/** `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function gitLogTool(o: { hidden?: readonly string[] } = {}): Tool<{ path: string; start_line?: number; end_line?: number; max_count?: number }> {
  return {
    name: 'git_log',
    description:
      'The git history of a file: its commits, newest first (hash, date, author, subject). With start_line and end_line, the commits that changed those lines, each with its diff (git log -L): use it to find the commit that brought a crashing line in.',
    args: LOG_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('git_log', ctx.workspace, async () => {
        const rel = relPath(ctx, args.path, o.hidden);
        const r = await range(ctx, rel, args.start_line, args.end_line);
        const n = `--max-count=${args.max_count ?? MAX_COUNT}`;
        const cmd = r ? ['log', ...PLAIN, LOG_FORMAT, n, `-L${r}:${rel}`] : ['log', ...PLAIN, LOG_FORMAT, n, '--', rel];
        return { content: gitResultText(await runGit(ctx.workspace, cmd, ctx.signal), `no commit changed ${rel}${r ? ` lines ${r}` : ''}`) };
      }),
  };
}

const BLAME_ARGS = z.strictObject({ path: relArg('The file'), start_line: line('First line of the range'), end_line: line('Last line of the range') });

export function gitBlameTool(o: { hidden?: readonly string[] } = {}): Tool<{ path: string; start_line: number; end_line: number }> {
  return {
    name: 'git_blame',
    description: 'Who last changed each line of a range of a file, and in which commit (git blame): short hash, author, date, line number, the line.',
    args: BLAME_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('git_blame', ctx.workspace, async () => {
        const rel = relPath(ctx, args.path, o.hidden);
        const r = (await range(ctx, rel, args.start_line, args.end_line))!;
        return {
          content: gitResultText(await runGit(ctx.workspace, ['blame', '--date=short', `-L${r}`, '--', rel], ctx.signal), `no lines to blame in ${rel}`),
        };
      }),
  };
}

/** A revision as git_show takes it: a hash, a branch or tag name, HEAD~2...; never an option. */
const REVISION = /^[A-Za-z0-9_][A-Za-z0-9_./~^@{}-]*$/;

const SHOW_ARGS = z.strictObject({ commit: text('The commit: a hash (short or full), a branch or tag, HEAD~1...'), path: relArg('Only this file').optional() });

export function gitShowTool(o: { hidden?: readonly string[] } = {}): Tool<{ commit: string; path?: string }> {
  return {
    name: 'git_show',
    description: "A commit's author, date, message and diff (git show); with path, only that file's part of the diff.",
    args: SHOW_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('git_show', ctx.workspace, async () => {
        if (!REVISION.test(args.commit)) throw new ToolInputError(`"${args.commit}" is not a commit name (a hash, a branch or tag, HEAD~1...)`);
        const rel = args.path !== undefined ? relPath(ctx, args.path, o.hidden) : undefined;
        const cmd = ['show', ...PLAIN, '--stat', '--patch', '--format=fuller', '--end-of-options', args.commit, ...(rel ? ['--', rel] : [])];
        return {
          content: gitResultText(
            await runGit(ctx.workspace, cmd, ctx.signal),
            rel ? `commit ${args.commit} did not change ${rel}` : `commit ${args.commit} shows nothing`,
          ),
        };
      }),
  };
}

const LOG_SEARCH_ARGS = z.strictObject({
  text: text('The exact text (literal, case-sensitive)'),
  path: relArg('Only this file or folder').optional(),
  max_count: maxCount,
});

export function gitLogSearchTool(o: { hidden?: readonly string[] } = {}): Tool<{ text: string; path?: string; max_count?: number }> {
  return {
    name: 'git_log_search',
    description:
      'The commits that added or removed a text (git log -S: a change in how many times it occurs), newest first; optionally only in one file or folder.',
    args: LOG_SEARCH_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('git_log_search', ctx.workspace, async () => {
        const only = args.path !== undefined ? ['--', relPath(ctx, args.path, o.hidden)] : [];
        const cmd = ['log', ...PLAIN, LOG_FORMAT, `--max-count=${args.max_count ?? MAX_COUNT}`, `-S${args.text}`, ...only];
        return { content: gitResultText(await runGit(ctx.workspace, cmd, ctx.signal), `no commit added or removed "${args.text}"`) };
      }),
  };
}
