/**
 * OpenAI's apply_patch format (the "V4A" patch its models are trained on), parsed and applied:
 *
 *   *** Begin Patch
 *   *** Update File: src/app.js
 *   @@ function total(items) {
 *    context line
 *   -removed line
 *   +added line
 *   *** Add File: src/new.js
 *   +its first line
 *   *** End Patch
 *
 * No line numbers: each hunk (after an optional "@@ text" anchor line, found first) is found by
 * its context and removed lines, from where the previous hunk ended, as OpenAI's own tool finds
 * it (seek-lines.ts: exactly, then ever more loosely). "*** End of File" pins a hunk to the
 * file's end; a hunk of only "+" lines goes at the end of the file. As OpenAI's parser, it also
 * takes a patch wrapped in a heredoc (<<'EOF' ... EOF), file headers with leading whitespace,
 * and ends every file it writes with a line break. "*** Delete File" and "*** Move to" parse but
 * are refused by the tool (the run's ledger records writes, not deletions or renames). A
 * malformed patch is a ToolInputError naming its line.
 */
import { ToolInputError } from '../workspace/paths';
import { linesOf } from './text-lines';
import { FIT_WORDS, seekLines } from './seek-lines';

export interface V4AHunk {
  anchor?: string;
  old: string[];
  new: string[];
  /** "*** End of File": the hunk ends at the file's last line. */
  eof: boolean;
  /** Its "+" and "-" lines. */
  added: number;
  removed: number;
}

export type V4AOp =
  { kind: 'add'; path: string; text: string } | { kind: 'delete'; path: string } | { kind: 'update'; path: string; moveTo?: string; hunks: V4AHunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const FILE_HEAD = /^\*\*\* (Add|Delete|Update) File: (.+)$/;
/** A shell heredoc's first line, as models trained to call apply_patch through a shell write it. */
const HEREDOC = /^(?:apply_patch\s+)?<<\s*(['"]?)([A-Za-z_]+)\1$/;

/** The file header a line is (leading and trailing whitespace forgiven), or null. */
function fileHead(line: string): RegExpExecArray | null {
  return FILE_HEAD.exec(line.trim());
}

/** `lines` without a heredoc around them (its "<<'EOF'" line and its closing "EOF" line). */
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== '');
  let last = lines.length - 1;
  while (last > first && lines[last].trim() === '') last--;
  const tag = first === -1 ? null : HEREDOC.exec(lines[first].trim());
  if (!tag || last <= first || lines[last].trim() !== tag[2]) return lines;
  return lines.slice(first + 1, last);
}

/** The operations of a V4A patch, in order; a ToolInputError for anything malformed. */
export function parseV4A(patch: string): V4AOp[] {
  const lines = unwrapHeredoc(patch.replace(/\r\n/g, '\n').split('\n'));
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  let i = 0;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (lines[i]?.trim() !== BEGIN) throw new ToolInputError(`the patch must start with "${BEGIN}" (line ${i + 1} is ${quote(lines[i])})`);
  if (lines[lines.length - 1]?.trim() !== END) throw new ToolInputError(`the patch must end with "${END}"`);
  const body = lines.slice(i + 1, lines.length - 1);
  const at = (k: number): number => i + 2 + k; // a body index as the patch's line number
  const ops: V4AOp[] = [];
  let k = 0;
  while (k < body.length) {
    const head = fileHead(body[k]);
    if (!head)
      throw new ToolInputError(`line ${at(k)} should start a file ("*** Add File: ", "*** Update File: " or "*** Delete File: "); it is ${quote(body[k])}`);
    const path = head[2].trim();
    if (ops.some((o) => o.path === path))
      throw new ToolInputError(`the patch names "${path}" twice (line ${at(k)}); put all of a file's changes in one section`);
    k++;
    const start = k;
    while (k < body.length && !fileHead(body[k])) k++;
    const section = body.slice(start, k);
    if (head[1] === 'Delete') {
      if (section.some((l) => l.trim() !== '')) throw new ToolInputError(`"*** Delete File: ${path}" (line ${at(start - 1)}) must not be followed by lines`);
      ops.push({ kind: 'delete', path });
    } else if (head[1] === 'Add') {
      const bad = section.findIndex((l) => !l.startsWith('+'));
      if (bad !== -1) throw new ToolInputError(`line ${at(start + bad)} of "*** Add File: ${path}" must start with "+"; it is ${quote(section[bad])}`);
      ops.push({ kind: 'add', path, text: section.map((l) => `${l.slice(1)}\n`).join('') });
    } else ops.push(parseUpdate(path, section, (n) => at(start + n)));
  }
  if (ops.length === 0) throw new ToolInputError('the patch changes no file');
  return ops;
}

function parseUpdate(path: string, section: string[], lineNo: (n: number) => number): V4AOp {
  let moveTo: string | undefined;
  let n = 0;
  if (section[0]?.trim().startsWith('*** Move to: ')) {
    moveTo = section[0].trim().slice('*** Move to: '.length).trim();
    n = 1;
  }
  const hunks: V4AHunk[] = [];
  let cur: V4AHunk | undefined;
  const open = (anchor?: string): V4AHunk => {
    const h: V4AHunk = { old: [], new: [], eof: false, added: 0, removed: 0, ...(anchor ? { anchor } : {}) };
    hunks.push(h);
    return h;
  };
  for (; n < section.length; n++) {
    const l = section[n];
    if (l.startsWith('@@')) {
      cur = open(l.slice(2).trim() || undefined);
      continue;
    }
    if (l.trim() === '*** End of File') {
      if (!cur) throw new ToolInputError(`line ${lineNo(n)}: "*** End of File" before any change of "${path}"`);
      cur.eof = true;
      cur = undefined;
      continue;
    }
    cur ??= open();
    if (l.startsWith('+')) {
      cur.new.push(l.slice(1));
      cur.added++;
    } else if (l.startsWith('-')) {
      cur.old.push(l.slice(1));
      cur.removed++;
    } else if (l.startsWith(' ') || l === '') {
      cur.old.push(l.slice(1));
      cur.new.push(l.slice(1));
    } else throw new ToolInputError(`line ${lineNo(n)} of the changes to "${path}" must start with " ", "-", "+" or "@@"; it is ${quote(l)}`);
  }
  const changes = hunks.filter((h) => h.added + h.removed > 0);
  if (changes.length === 0) throw new ToolInputError(`"*** Update File: ${path}" changes nothing; give "-" and "+" lines`);
  return { kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), hunks: changes };
}

/** `text` with the hunks applied in order, or a ToolInputError naming the first hunk that does not match. */
export function applyHunks(text: string, hunks: V4AHunk[], rel: string): string {
  return patchText(text, hunks, rel).text;
}

/**
 * `text` with the hunks applied in order, and notes of what was not plain (a hunk found only
 * loosely, a hunk put at the end, a final line break added); a ToolInputError naming the first
 * hunk that does not match.
 */
export function patchText(text: string, hunks: V4AHunk[], rel: string): { text: string; notes: string[] } {
  const lines = linesOf(text);
  const notes: string[] = [];
  let cursor = 0;
  let after = '';
  hunks.forEach((h, idx) => {
    if (h.anchor !== undefined) {
      const a = seekLines(lines, [h.anchor], cursor, false);
      if (a === undefined)
        throw new ToolInputError(
          `change ${idx + 1} of "${rel}": its "@@ ${h.anchor}" line is not in the file${cursor > 0 ? ' after the change before it' : ''}`,
        );
      if (a.fit !== 'exact') notes.push(`the "@@" line of change ${idx + 1} matched ${FIT_WORDS[a.fit]}`);
      cursor = a.at + 1;
      after = ` after its "@@ ${h.anchor}" line`;
    }
    let at: number;
    if (h.old.length === 0) {
      at = lines.length;
      if (!h.eof) notes.push(`change ${idx + 1} has no context lines, so it went at the end of the file`);
    } else {
      const found = seekLines(lines, h.old, cursor, h.eof);
      if (found === undefined)
        throw new ToolInputError(
          `change ${idx + 1} of "${rel}" does not match the file: its context and "-" lines (starting ${quote(h.old[0])}) are not there${after}; read the file again and rebuild the patch`,
        );
      if (found.fit !== 'exact') notes.push(`change ${idx + 1} matched ${FIT_WORDS[found.fit]}`);
      at = found.at;
    }
    lines.splice(at, h.old.length, ...h.new);
    cursor = at + h.new.length;
    after = ' after the change before it';
  });
  if (lines.length === 0) return { text: '', notes };
  if (text !== '' && !text.endsWith('\n')) notes.push('the file now ends with a line break');
  return { text: lines.join('\n') + '\n', notes };
}

/** The hunks undone (each one's new lines back to its old), for a lookup: they apply when the patch is in. */
export function reversed(hunks: V4AHunk[]): V4AHunk[] {
  return hunks.map((h) => ({ ...h, old: h.new, new: h.old, added: h.removed, removed: h.added }));
}

function quote(l: string | undefined): string {
  if (l === undefined) return 'missing';
  return JSON.stringify(l.length > 60 ? `${l.slice(0, 60)}…` : l);
}
