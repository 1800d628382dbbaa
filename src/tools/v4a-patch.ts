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
 * its context and removed lines, from where the previous hunk ended; exactly, else ignoring
 * trailing blanks, else ignoring leading and trailing blanks. "*** End of File" pins a hunk to
 * the file's end. "*** Delete File" and "*** Move to" parse but are refused by the tool (the
 * run's ledger records writes, not deletions or renames). A malformed patch is a ToolInputError
 * naming its line.
 */
import { ToolInputError } from '../workspace/paths';
import { linesOf } from './text-lines';

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

/** The operations of a V4A patch, in order; a ToolInputError for anything malformed. */
export function parseV4A(patch: string): V4AOp[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
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
    const head = FILE_HEAD.exec(body[k]);
    if (!head)
      throw new ToolInputError(`line ${at(k)} should start a file ("*** Add File: ", "*** Update File: " or "*** Delete File: "); it is ${quote(body[k])}`);
    const path = head[2].trim();
    if (ops.some((o) => o.path === path))
      throw new ToolInputError(`the patch names "${path}" twice (line ${at(k)}); put all of a file's changes in one section`);
    k++;
    const start = k;
    while (k < body.length && !FILE_HEAD.test(body[k])) k++;
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
  if (section[0]?.startsWith('*** Move to: ')) {
    moveTo = section[0].slice('*** Move to: '.length).trim();
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
  const blind = changes.findIndex((h) => h.old.length === 0 && !h.eof);
  if (blind !== -1)
    throw new ToolInputError(
      `change ${blind + 1} of "${path}" has no context or removed lines, so its place is unknown; give the lines around it with a leading space`,
    );
  return { kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), hunks: changes };
}

/** `text` with the hunks applied in order, or a ToolInputError naming the first hunk that does not match. */
export function applyHunks(text: string, hunks: V4AHunk[], rel: string): string {
  const lines = linesOf(text);
  const finalBreak = text === '' || text.endsWith('\n');
  let cursor = 0;
  let after = '';
  hunks.forEach((h, idx) => {
    if (h.anchor !== undefined) {
      const a = findSeq(lines, [h.anchor], cursor, false);
      if (a === -1)
        throw new ToolInputError(
          `change ${idx + 1} of "${rel}": its "@@ ${h.anchor}" line is not in the file${cursor > 0 ? ' after the change before it' : ''}`,
        );
      cursor = a + 1;
      after = ` after its "@@ ${h.anchor}" line`;
    }
    const at = h.old.length === 0 ? lines.length : findSeq(lines, h.old, cursor, h.eof);
    if (at === -1)
      throw new ToolInputError(
        `change ${idx + 1} of "${rel}" does not match the file: its context and "-" lines (starting ${quote(h.old[0])}) are not there${after}; read the file again and rebuild the patch`,
      );
    lines.splice(at, h.old.length, ...h.new);
    cursor = at + h.new.length;
    after = ' after the change before it';
  });
  return lines.length === 0 ? '' : lines.join('\n') + (finalBreak ? '\n' : '');
}

/** The hunks undone (each one's new lines back to its old), for a lookup: they apply when the patch is in. */
export function reversed(hunks: V4AHunk[]): V4AHunk[] {
  return hunks.map((h) => ({ ...h, old: h.new, new: h.old, added: h.removed, removed: h.added }));
}

const MATCHERS: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()];

/** Where `seq` first occurs in `lines` at or after `from` (at the very end when `eof`), matching ever more loosely; -1 when nowhere. */
function findSeq(lines: string[], seq: string[], from: number, eof: boolean): number {
  for (const norm of MATCHERS) {
    const want = seq.map(norm);
    const matches = (i: number): boolean => want.every((w, j) => norm(lines[i + j]) === w);
    if (eof) {
      const i = lines.length - seq.length;
      if (i >= from && matches(i)) return i;
      continue;
    }
    for (let i = from; i + seq.length <= lines.length; i++) if (matches(i)) return i;
  }
  return -1;
}

function quote(l: string | undefined): string {
  if (l === undefined) return 'missing';
  return JSON.stringify(l.length > 60 ? `${l.slice(0, 60)}…` : l);
}
