/**
 * A search's result as the model reads it: a first line with the totals and what was cut,
 * then each file's path followed by its lines ("  12: text" for a match, "  13- text" for a
 * context line, "  --" between runs that are not adjacent). Capped at MATCH_CAP matching lines
 * and OUTPUT_CAP bytes; the first line says how many matches and files were not shown.
 */
import type { FileHits, SearchFound } from './types';

export const MATCH_CAP = 200;
export const OUTPUT_CAP = 20_000;
export const LINE_CAP = 240;

export function formatHits(found: SearchFound, what: string): string {
  const totalMatches = found.files.reduce((s, f) => s + f.matches, 0);
  const body: string[] = [];
  let bytes = 0;
  let shownMatches = 0;
  let shownFiles = 0;
  let partFiles = 0;
  for (const f of found.files) {
    const block = fileBlock(f, MATCH_CAP - shownMatches);
    if (block.matches === 0 || (bytes + block.bytes > OUTPUT_CAP && shownFiles > 0)) break;
    body.push(block.text);
    bytes += block.bytes;
    shownMatches += block.matches;
    shownFiles++;
    if (block.matches < f.matches) partFiles++;
    if (shownMatches >= MATCH_CAP) break;
  }
  const lower = found.stoppedAt !== undefined ? 'at least ' : '';
  const totals = `${lower}${totalMatches} matching line${totalMatches === 1 ? '' : 's'} in ${found.files.length} file${found.files.length === 1 ? '' : 's'} for ${what}`;
  const cut =
    shownMatches === totalMatches
      ? 'all shown'
      : `${shownMatches} shown, ${lower}${totalMatches - shownMatches} not (in ${found.files.length - shownFiles + partFiles} files; narrow the search with "path" or "glob")`;
  return [`${totals}: ${cut}`, ...body].join('\n');
}

function fileBlock(f: FileHits, budget: number): { text: string; bytes: number; matches: number } {
  const out = [f.path];
  let matches = 0;
  let prev: number | undefined;
  for (const l of f.lines) {
    if (l.match && matches >= budget) break;
    if (prev !== undefined && l.n > prev + 1) out.push('  --');
    out.push(`  ${l.n}${l.match ? ':' : '-'} ${clipLine(l.text)}`);
    if (l.match) matches++;
    prev = l.n;
  }
  const cutHere = f.matches - matches;
  if (cutHere > 0 && matches > 0) out.push(`  ... ${cutHere} more matching lines in this file`);
  const text = out.join('\n');
  return { text, bytes: Buffer.byteLength(text) + 1, matches };
}

function clipLine(line: string): string {
  const t = line.trimEnd();
  return t.length <= LINE_CAP ? t : `${t.slice(0, LINE_CAP)}... (${t.length - LINE_CAP} more characters)`;
}
