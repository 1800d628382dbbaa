/**
 * Unified diffs of one file, for code_patch: parsing (with a little forgiveness for what
 * models write: a surrounding ``` fence, miscounted @@ line counts), applying with exact
 * context (fuzzFactor 0), and saying which hunk does not match.
 */
import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from 'diff';
import { ToolInputError } from '../workspace/paths';

export interface OneFilePatch {
  patch: StructuredPatch;
  added: number;
  removed: number;
}

/** Parses `text` as a unified diff of one file; a ToolInputError says what is wrong with it. */
export function parseOneFilePatch(text: string): OneFilePatch {
  const src = stripFence(text);
  if (!/^@@ /m.test(src)) throw new ToolInputError('the patch has no hunks; write a unified diff with "@@ -a,b +c,d @@" hunk headers');
  let list: StructuredPatch[];
  try {
    list = parsePatch(src);
  } catch (first) {
    try {
      list = parsePatch(recount(src));
    } catch {
      throw new ToolInputError(`the patch is not a valid unified diff (${(first as Error).message})`);
    }
  }
  const withHunks = list.filter((p) => p.hunks.length > 0);
  if (withHunks.length !== 1) throw new ToolInputError(`the patch changes ${withHunks.length} files; code_patch takes a diff of one file`);
  const patch = withHunks[0];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  if (added === 0 && removed === 0) throw new ToolInputError('the patch adds and removes no lines');
  return { patch, added, removed };
}

/** The patched text, or false when some hunk's context or removed lines do not match exactly. */
export function applyTo(source: string, patch: StructuredPatch): string | false {
  return applyPatch(source, patch, { fuzzFactor: 0 });
}

export function reverseOf(patch: StructuredPatch): StructuredPatch {
  return reversePatch(patch);
}

/** Which hunk (1-based) is the first that does not apply, with its header. */
export function failingHunk(source: string, patch: StructuredPatch): { index: number; of: number; header: string } {
  const n = patch.hunks.length;
  for (let k = 1; k <= n; k++) {
    if (applyTo(source, { ...patch, hunks: patch.hunks.slice(0, k) }) === false) return { index: k, of: n, header: headerOf(patch.hunks[k - 1]) };
  }
  return { index: n, of: n, header: headerOf(patch.hunks[n - 1]) };
}

function headerOf(h: StructuredPatch['hunks'][number]): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

function stripFence(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && /^```/.test(lines[0])) lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] === '' || /^```\s*$/.test(lines[lines.length - 1]))) lines.pop();
  return lines.join('\n') + '\n';
}

const FILE_HEADER = /^(--- |\+\+\+ |diff |Index: )/;

/** Rewrites each @@ header's line counts from its body (a body ends at the next @@ or file header). */
function recount(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(lines[i]);
    if (!m) {
      out.push(lines[i]);
      continue;
    }
    let j = i + 1;
    let oldN = 0;
    let newN = 0;
    const body: string[] = [];
    for (; j < lines.length && !lines[j].startsWith('@@') && !FILE_HEADER.test(lines[j]); j++) {
      const l = lines[j];
      if (j === lines.length - 1 && l === '') break;
      const op = l === '' ? ' ' : l[0];
      if (op === ' ' || op === '-') oldN++;
      if (op === ' ' || op === '+') newN++;
      body.push(l);
    }
    out.push(`@@ -${m[1]},${oldN} +${m[2]},${newN} @@${m[3]}`, ...body);
    i = j - 1;
  }
  return out.join('\n');
}
