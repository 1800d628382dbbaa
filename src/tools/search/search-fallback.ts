/**
 * The search when there is no ripgrep: our walker (walk-ignoring.ts: the same ignore files and
 * build folders as rg is told about) and JavaScript regular expressions. Binary files, files
 * over SEARCH_FILE_CAP and symlinks are skipped, as rg skips them.
 */
import * as path from 'node:path';
import { compileGlob } from '../../workspace/glob';
import { ToolInputError } from '../../workspace/paths';
import { walkIgnoring } from '../../workspace/walk-ignoring';
import { readRegularFile } from '../regular-file';
import { hiddenFilter } from './hidden-filter';
import { PER_FILE_LINES, SEARCH_FILE_CAP, type FileHits, type HitLine, type SearchFound, type SearchQuery } from './types';

/** The query as a JavaScript regular expression; a ToolInputError when it does not compile. */
export function queryRegExp(q: Pick<SearchQuery, 'pattern' | 'regex' | 'caseMode'>): RegExp {
  const source = q.regex ? q.pattern : q.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const insensitive = q.caseMode === 'insensitive' || (q.caseMode === 'smart' && !/[A-Z]/.test(q.pattern.replace(/\\[A-Za-z]/g, '')));
  try {
    return new RegExp(source, insensitive ? 'iu' : 'u');
  } catch (e) {
    throw new ToolInputError(
      `the regular expression ${JSON.stringify(q.pattern)} does not compile: ${(e as Error).message}; pass "regex": false to search for the literal text`,
    );
  }
}

export async function searchWithFallback(workspace: string, q: SearchQuery, startIsFile: boolean, signal: AbortSignal): Promise<SearchFound> {
  const re = queryRegExp(q);
  const glob = q.glob !== undefined ? compileGlob(q.glob) : undefined;
  const keep = hiddenFilter(workspace, q.hidden);
  const candidates: string[] = [];
  if (startIsFile) candidates.push(q.startRel);
  else
    await walkIgnoring(workspace, path.join(workspace, ...q.startRel.split('/')), {
      hidden: q.hidden,
      onEntry: (e) => {
        if (e.kind === 'file' && (!glob || glob.matches(e.rel, q.startRel))) candidates.push(e.rel);
      },
    });
  candidates.sort();
  const files: FileHits[] = [];
  for (const rel of candidates) {
    signal.throwIfAborted();
    if (!keep(rel)) continue;
    const text = await readText(workspace, rel);
    if (text === undefined) continue;
    const f = searchText(rel, text, re, q.context);
    if (f) files.push(f);
  }
  return { files, searched: candidates.length, engine: 'fallback' };
}

function searchText(rel: string, text: string, re: RegExp, context: number): FileHits | undefined {
  if (!re.test(text)) return undefined;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const shown = new Map<number, boolean>();
  let matches = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (!re.test(line)) continue;
    matches++;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) if (!shown.get(j)) shown.set(j, j === i);
    shown.set(i, true);
  }
  if (matches === 0) return undefined;
  const out: HitLine[] = [...shown.entries()]
    .sort((a, b) => a[0] - b[0])
    .slice(0, PER_FILE_LINES)
    .map(([i, match]) => ({ n: i + 1, text: lines[i].replace(/\r$/, ''), match }));
  return { path: rel, lines: out, matches };
}

async function readText(workspace: string, rel: string): Promise<string | undefined> {
  try {
    const { bytes, size } = await readRegularFile(path.join(workspace, ...rel.split('/')), rel, { max: SEARCH_FILE_CAP + 1, skipAbove: SEARCH_FILE_CAP });
    if (size > SEARCH_FILE_CAP || bytes.length > SEARCH_FILE_CAP) return undefined;
    return bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
