/**
 * Reading a workspace file for a tool: only a regular file, and only the bytes asked for. The
 * file is opened without blocking (a named pipe would otherwise wait for a writer forever) and
 * checked on the open descriptor (fstat) before one byte is read; a FIFO, a socket or a device
 * is refused with a ToolInputError naming it.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { ToolInputError } from '../workspace/paths';

/** Some of a file's bytes and its real size. */
export interface FileHead {
  /** The first bytes of the file: all of them, or `max` when it is bigger (none when it is bigger than `skipAbove`). */
  bytes: Buffer;
  /** The file's size in bytes when it was opened. */
  size: number;
}

export interface ReadLimits {
  /** Read at most this many bytes (default: all). */
  max?: number;
  /** A file bigger than this is not read at all: its size alone comes back. */
  skipAbove?: number;
}

// O_NONBLOCK does not exist on Windows, where a pipe is not a file of a folder.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 16;

/** The first bytes of the regular file `abs` (see ReadLimits); `rel` names it in a refusal. */
export async function readRegularFile(abs: string, rel: string, limits: ReadLimits = {}): Promise<FileHead> {
  const fh = await fsp.open(abs, OPEN_FLAGS);
  try {
    const st = await fh.stat();
    assertRegular(st, rel);
    const max = st.size > (limits.skipAbove ?? Infinity) ? 0 : (limits.max ?? Infinity);
    const chunks: Buffer[] = [];
    let got = 0;
    while (got < max) {
      const want = Math.min(max - got, Math.max(CHUNK, Math.min(st.size, max) - got));
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await fh.read(buf, 0, want, got);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      got += bytesRead;
    }
    return { bytes: Buffer.concat(chunks, got), size: st.size };
  } finally {
    await fh.close();
  }
}

/** readRegularFile, synchronously (describe() has no await). */
export function readRegularFileSync(abs: string, rel: string, limits: ReadLimits = {}): FileHead {
  const fd = fs.openSync(abs, OPEN_FLAGS);
  try {
    const st = fs.fstatSync(fd);
    assertRegular(st, rel);
    const max = st.size > (limits.skipAbove ?? Infinity) ? 0 : (limits.max ?? Infinity);
    const chunks: Buffer[] = [];
    let got = 0;
    while (got < max) {
      const want = Math.min(max - got, Math.max(CHUNK, Math.min(st.size, max) - got));
      const buf = Buffer.allocUnsafe(want);
      const bytesRead = fs.readSync(fd, buf, 0, want, got);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      got += bytesRead;
    }
    return { bytes: Buffer.concat(chunks, got), size: st.size };
  } finally {
    fs.closeSync(fd);
  }
}

/** Refuses what is not a regular file (a folder, a named pipe, a socket, a device). */
export function assertRegular(st: fs.Stats, rel: string): void {
  if (st.isFile()) return;
  if (st.isDirectory()) throw new ToolInputError(`"${rel}" is a folder, not a file`);
  throw new ToolInputError(`"${rel}" is ${specialKind(st)}; the tools only read and write regular files`);
}

function specialKind(st: fs.Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
