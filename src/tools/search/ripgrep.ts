/**
 * Searching with ripgrep: `rg --json`, its events parsed with zod. rg runs with the workspace
 * as its folder; it reads hidden files, the ignore files with or without a .git folder
 * (.gitignore, .ignore, .rgignore; not the user's global ones), skips the build folders
 * (ignore-rules.ts) and never follows symlinks. Hits in a hidden folder (the run's state
 * folder) are dropped here, whatever rg saw. Results are sorted by path afterwards (rg's own
 * --sort would make it run on one thread).
 */
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';
import { z } from 'zod';
import { ToolInputError } from '../../workspace/paths';
import { skippedBuildFolders } from '../../workspace/ignore-rules';
import { hiddenFilter } from './hidden-filter';
import { PER_FILE_LINES, SEARCH_FILE_CAP, type FileHits, type SearchFound, type SearchQuery } from './types';

const Data = z.union([z.object({ text: z.string() }), z.object({ bytes: z.string() })]);
const Event = z.discriminatedUnion('type', [
  z.object({ type: z.literal('begin'), data: z.object({ path: Data }) }),
  z.object({ type: z.literal('match'), data: z.object({ path: Data, lines: Data, line_number: z.number().int().nullable() }) }),
  z.object({ type: z.literal('context'), data: z.object({ path: Data, lines: Data, line_number: z.number().int().nullable() }) }),
  z.object({ type: z.literal('end'), data: z.object({ path: Data }) }),
  z.object({ type: z.literal('summary'), data: z.unknown() }),
]);

/** Beyond this many matching lines rg is stopped: the counts become lower bounds. */
export const RG_MATCH_LIMIT = 200_000;

export function ripgrepArgs(q: SearchQuery): string[] {
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--no-follow'];
  args.push(`--max-filesize=${SEARCH_FILE_CAP}`);
  args.push(q.caseMode === 'smart' ? '--smart-case' : q.caseMode === 'insensitive' ? '--ignore-case' : '--case-sensitive');
  if (!q.regex) args.push('--fixed-strings');
  if (q.context > 0) args.push(`--context=${q.context}`);
  for (const f of skippedBuildFolders(q.startRel)) args.push(`--glob=!${f}/`);
  if (q.glob !== undefined) args.push(`--glob=${q.glob}`);
  args.push(`--regexp=${q.pattern}`, '--', q.startRel);
  return args;
}

export async function searchWithRipgrep(rg: string, workspace: string, q: SearchQuery, signal: AbortSignal): Promise<SearchFound> {
  const child = spawn(rg, ripgrepArgs(q), { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 8000) stderr += d;
  });
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const keep = hiddenFilter(workspace, q.hidden);
  const byPath = new Map<string, FileHits>();
  let matches = 0;
  let stopped = false;
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  for await (const raw of lines) {
    if (stopped) continue;
    const ev = Event.safeParse(JSON.parse(raw));
    if (!ev.success || (ev.data.type !== 'match' && ev.data.type !== 'context')) continue;
    const d = ev.data.data;
    const p = decode(d.path);
    let f = byPath.get(p);
    if (!f) {
      if (!keep(p)) continue;
      f = { path: p, lines: [], matches: 0 };
      byPath.set(p, f);
    }
    const isMatch = ev.data.type === 'match';
    if (isMatch) {
      f.matches++;
      matches++;
    }
    if (f.lines.length < PER_FILE_LINES && d.line_number !== null)
      f.lines.push({ n: d.line_number, text: decode(d.lines).replace(/\r?\n$/, ''), match: isMatch });
    if (matches >= RG_MATCH_LIMIT) {
      stopped = true;
      child.kill();
    }
  }
  const code = await closed;
  if (!stopped && code === 2 && byPath.size === 0 && /regex|parse error|error parsing/i.test(stderr)) {
    throw new ToolInputError(
      `the regular expression ${JSON.stringify(q.pattern)} does not compile: ${stderr.trim().replace(/^error: /, '')}; pass "regex": false to search for the literal text`,
    );
  }
  if (!stopped && code !== 0 && code !== 1 && byPath.size === 0) throw new Error(`ripgrep (${rg}) failed with exit status ${code}: ${stderr.trim()}`);
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, engine: 'ripgrep', ...(stopped ? { stoppedAt: RG_MATCH_LIMIT } : {}) };
}

function decode(d: z.infer<typeof Data>): string {
  const s = 'text' in d ? d.text : Buffer.from(d.bytes, 'base64').toString('utf8');
  return s.startsWith('./') ? s.slice(2) : s;
}
