/**
 * What the editing tools (str_replace, the text editor, apply_patch) share: reading the file a
 * call edits (only a regular file: regular-file.ts), writing its new text durably and into the
 * ledger, an exact-string replacement that must match once, and the lookup's judgement of a
 * replacement ("done" / "not done" / unsure).
 */
import type { ToolContext } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { readRegularFile } from './regular-file';
import type { WriteTarget } from './write-target';
import { syncFileDurable, writeFileDurable } from '../disk/durable-write';
import { WRITE_CAP } from './write-file';

/** The target's text, or undefined when it does not exist. */
export async function textOf(t: WriteTarget): Promise<string | undefined> {
  try {
    return (await readRegularFile(t.abs, t.rel)).bytes.toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The target's text; a missing file is a ToolInputError naming `create` (how to make one). */
export async function existingText(t: WriteTarget, create: string): Promise<string> {
  const text = await textOf(t);
  if (text === undefined) throw new ToolInputError(`"${t.rel}" does not exist; ${create}`);
  return text;
}

/** Writes `text` durably, then records it in the ledger (in that order: the ledger vouches only for durable bytes). */
export async function writeRecorded(t: WriteTarget, text: string, ctx: ToolContext): Promise<Buffer> {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length > WRITE_CAP) throw new ToolInputError(`the new content of "${t.rel}" is ${buf.length} bytes; the tools write at most ${WRITE_CAP}`);
  await writeFileDurable(t.abs, buf, { top: ctx.workspace });
  await ctx.recordWrite(t.rel, buf);
  return buf;
}

/** For a lookup that found the edit done: the bytes may be what a killed process left in the page cache, so durable before the ledger vouches for them. */
export async function recordFound(t: WriteTarget, text: string, ctx: ToolContext): Promise<void> {
  await syncFileDurable(t.abs, { top: ctx.workspace, always: true });
  await ctx.recordWrite(t.rel, Buffer.from(text, 'utf8'));
}

/** How many times `needle` occurs in `text` (not overlapping); 0 for an empty needle. */
export function occurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * The old and new text with the file's line breaks: a file of CRLF lines takes an `oldText`
 * written with LF (the model cannot see the CR) as CRLF, and `newText` with it.
 */
export function withFileLineBreaks(text: string, oldText: string, newText: string): [string, string] {
  if (!text.includes('\r\n') || oldText.includes('\r') || !oldText.includes('\n')) return [oldText, newText];
  const crlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');
  return [crlf(oldText), crlf(newText)];
}

/** The 1-based line numbers where `needle` starts in `text` (not overlapping). */
function startLines(text: string, needle: string): number[] {
  const out: number[] = [];
  let line = 1;
  let from = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    for (let j = text.indexOf('\n', from); j !== -1 && j < i; j = text.indexOf('\n', j + 1)) line++;
    from = i;
    out.push(line);
  }
  return out;
}

/**
 * `text` with its one occurrence of `oldText` replaced by `newText` (line breaks as the file's:
 * withFileLineBreaks), and the lines the new text took (1-based); a ToolInputError naming the
 * number of occurrences, and where they start, when there is not exactly one (nothing is
 * written then).
 */
export function replacement(text: string, oldText: string, newText: string, rel: string): { text: string; first: number; last: number } {
  if (oldText === '') throw new ToolInputError('the text to replace is empty; give the exact text to replace, with enough lines around it to occur once');
  if (oldText === newText) throw new ToolInputError('the new text is the same as the old text; nothing would change');
  const [o, n] = withFileLineBreaks(text, oldText, newText);
  const starts = startLines(text, o);
  if (starts.length === 0)
    throw new ToolInputError(
      `the text to replace does not occur in "${rel}" (0 occurrences); it must match the file exactly, whitespace and line breaks included. Read the file again. Nothing was written.`,
    );
  if (starts.length > 1)
    throw new ToolInputError(
      `the text to replace occurs ${starts.length} times in "${rel}" (starting on lines ${starts.join(', ')}); it must occur exactly once. Include more of the surrounding lines to make it unique. Nothing was written.`,
    );
  const at = text.indexOf(o);
  const first = starts[0];
  return { text: text.slice(0, at) + n + text.slice(at + o.length), first, last: first + Math.max(0, n.split('\n').length - 1) };
}

/** `text` with its one occurrence of `oldText` replaced by `newText` (see replacement()). */
export function replaceOnce(text: string, oldText: string, newText: string, rel: string): string {
  return replacement(text, oldText, newText, rel).text;
}

/** A few numbered lines of `text` around lines first..last, as a result shows an edit. */
export function snippet(text: string, rel: string, first: number, last: number, around = 4): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const from = Math.max(1, first - around);
  const to = Math.min(lines.length, last + around);
  const width = String(to).length;
  const body: string[] = [];
  for (let i = from; i <= to; i++) body.push(`${String(i).padStart(width)}\t${lines[i - 1]}`);
  return `lines ${from}-${to} of ${rel} now:\n${body.join('\n')}`;
}

/**
 * Whether a replacement of `oldText` by `newText` is in `text`: "done" when the new text is in
 * place and the old one gone, "not-done" when the old text is there and the new one is
 * not; anything else is "unsure" (e.g. both are there, which a new text containing the old
 * one always gives) and a person decides.
 */
export function replacementState(text: string, oldText: string, newText: string): 'done' | 'not-done' | 'unsure' {
  [oldText, newText] = withFileLineBreaks(text, oldText, newText);
  const oldThere = occurrences(text, oldText) > 0;
  const newThere = newText !== '' && text.includes(newText);
  if (!oldThere && (newThere || newText === '')) return 'done';
  if (oldThere && !newThere) return 'not-done';
  return 'unsure';
}
