/**
 * Reading one crash report for grouping: safely, and only as much as is used.
 *
 * - Only a regular file is read. A named pipe, socket or device is skipped (with the reason):
 *   opening a pipe waits for a writer that may never come, and a device may never end. The file
 *   is opened non-blocking and checked after opening, so one swapped in meanwhile is caught too.
 * - A symlink is followed only when its real path is inside the workspace; one that leads out
 *   (its text would reach the model) or is broken is skipped.
 * - At most MAX_REPORT_BYTES from the start are read, into a buffer the file's size: the parsers
 *   look for the first crash. A report cut there keeps only whole lines (a JSON-lines report
 *   keeps its whole events).
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

/** Bytes read from the start of one report, at most. */
export const MAX_REPORT_BYTES = 1024 * 1024;

/** Bytes at the start looked at for a NUL: a binary file is no report. */
const BINARY_SNIFF_BYTES = 8000;

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

export type ReportText =
  /** The report's text (its first MAX_REPORT_BYTES). */
  | { kind: 'text'; text: string }
  /** A binary file, or one that could not be read: listed as a report without a crash. */
  | { kind: 'unreadable' }
  /** Not read at all: not a regular file, or a symlink out of the workspace. */
  | { kind: 'skipped'; reason: string };

/** `realWorkspace`: the workspace's real path (fs.realpath). */
export async function readReport(realWorkspace: string, file: string, cap = MAX_REPORT_BYTES): Promise<ReportText> {
  let target = file;
  let st: fs.Stats;
  try {
    st = await fsp.lstat(file);
  } catch {
    return { kind: 'unreadable' };
  }
  if (st.isSymbolicLink()) {
    try {
      target = await fsp.realpath(file);
    } catch {
      return { kind: 'skipped', reason: 'a broken symlink' };
    }
    if (!isInside(realWorkspace, target)) return { kind: 'skipped', reason: 'a symlink that leads out of the workspace' };
    st = await fsp.lstat(target).catch(() => st);
  }
  if (!st.isFile()) return { kind: 'skipped', reason: `not a regular file (${kindOf(st)})` };
  let h: fsp.FileHandle;
  try {
    h = await fsp.open(target, OPEN_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'skipped', reason: 'a symlink that leads out of the workspace' };
    return { kind: 'unreadable' };
  }
  try {
    const now = await h.stat();
    if (!now.isFile()) return { kind: 'skipped', reason: `not a regular file (${kindOf(now)})` };
    const want = Math.min(now.size, cap);
    const buf = Buffer.allocUnsafe(want);
    let n = 0;
    while (n < want) {
      const { bytesRead } = await h.read(buf, n, want - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    let b = buf.subarray(0, n);
    if (b.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'unreadable' };
    if (now.size > cap) {
      const lastLine = b.lastIndexOf(0x0a);
      if (lastLine >= 0) b = b.subarray(0, lastLine + 1);
    }
    return { kind: 'text', text: b.toString('utf8') };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await h.close();
  }
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return 'not a file';
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
