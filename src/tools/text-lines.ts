/**
 * A file's text as lines, for the text editor: a numbered view of a range of lines (capped,
 * with a note of what was not shown) and an insertion after a line. Line numbers are 1-based;
 * a range past the end is a ToolInputError naming the file's number of lines.
 */
import { ToolInputError } from '../workspace/paths';

/** Most characters a view shows; the lines after are counted, not shown. */
export const VIEW_CAP = 100_000;

/** The lines of `text` (a final line break ends the last line; it does not start another). */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines `range` ([first, last], 1-based, inclusive; last -1: to the end) of `text`, numbered; the whole file without a range. */
export function numberedView(text: string, rel: string, range?: [number, number]): string {
  const lines = linesOf(text);
  const n = lines.length;
  const first = range?.[0] ?? 1;
  const last = range === undefined || range[1] === -1 ? n : range[1];
  if (n === 0) return `${rel} is empty (0 lines)`;
  if (first < 1) throw new ToolInputError(`view_range starts at line ${first}; lines are numbered from 1`);
  if (last < first) throw new ToolInputError(`view_range [${first}, ${last}] ends before it starts; give [first, last] with last >= first, or -1 for the end`);
  if (first > n) throw new ToolInputError(`view_range starts at line ${first}, past the end of "${rel}" (${n} lines)`);
  if (last > n) throw new ToolInputError(`view_range ends at line ${last}, past the end of "${rel}" (${n} lines); use -1 to read to the end`);
  const width = String(last).length;
  const out: string[] = [];
  let size = 0;
  let shownTo = first - 1;
  for (let i = first; i <= last; i++) {
    const line = `${String(i).padStart(width)}\t${lines[i - 1]}`;
    if (size + line.length + 1 > VIEW_CAP && out.length > 0) break;
    out.push(line);
    size += line.length + 1;
    shownTo = i;
  }
  const notes: string[] = [];
  if (shownTo < last) notes.push(`lines ${shownTo + 1}-${last} not shown (the view is capped at ${VIEW_CAP} characters); view them with a view_range`);
  if (first > 1 || last < n) notes.push(`${rel} has ${n} lines; lines ${first}-${shownTo} are shown`);
  return notes.length > 0 ? `${out.join('\n')}\n... [${notes.join('; ')}]` : out.join('\n');
}

/**
 * `text` with `insert` put after line `after` (0: at the top), as whole lines (a line break is
 * added after it when it has none), and whether `text` already holds exactly that at that place.
 */
export function insertAt(text: string, after: number, insert: string, rel: string): { text: string; alreadyThere: boolean } {
  const n = linesOf(text).length;
  if (after < 0) throw new ToolInputError(`insert_line is ${after}; give 0 (the top) or a line number`);
  if (after > n) throw new ToolInputError(`insert_line ${after} is past the end of "${rel}" (${n} lines); give 0 to ${n}`);
  let at = 0;
  for (let i = 0; i < after; i++) at = text.indexOf('\n', at) + 1 || text.length;
  const piece = insert.endsWith('\n') ? insert : `${insert}\n`;
  const head = text.slice(0, at);
  const glue = head !== '' && !head.endsWith('\n') ? '\n' : '';
  return { text: head + glue + piece + text.slice(at), alreadyThere: text.startsWith(piece, at) };
}
