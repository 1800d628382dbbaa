/**
 * Reading a window of a file's lines without reading more of the file than it takes: the
 * lines from `start` (1-based) on, at most `count` of them and at most `maxBytes` of text,
 * then counting the file's remaining lines for up to `scanBytes` more bytes (a 1 GB log costs
 * its first megabytes, not its gigabyte). Opened as readRegularFile opens (no blocking on a
 * named pipe; anything but a regular file refused).
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { assertRegular } from './regular-file';

export interface LineWindow {
  /** The lines shown, without their line ends; the last may be cut (see `cutLine`). */
  lines: string[];
  /** The number of the first line shown. */
  first: number;
  /** How many lines the file has; undefined when the file was not read to its end. */
  total?: number;
  /** Lines counted before the scan stopped (a lower bound of the total when `total` is undefined). */
  counted: number;
  /** Bytes of the file. */
  size: number;
  /** The first line shown was longer than `maxBytes`: only its start is shown. */
  cutFirst: boolean;
  /** The first bytes held a NUL byte. */
  binary: boolean;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 16;

export async function readLineWindow(abs: string, rel: string, w: { start: number; count: number; maxBytes: number; scanBytes: number }): Promise<LineWindow> {
  const fh = await fsp.open(abs, OPEN_FLAGS);
  try {
    const st = await fh.stat();
    assertRegular(st, rel);
    const out: LineWindow = { lines: [], first: w.start, counted: 0, size: st.size, binary: false, cutFirst: false };
    let lineNo = 1; // the line the next byte belongs to
    let pending: Buffer[] = []; // the bytes of the current line, when it is in the window
    let pendingLen = 0;
    let shownBytes = 0;
    let windowDone = false;
    let pos = 0;
    let scanEnd = Infinity;
    let lastByte = 0x0a;
    const buf = Buffer.allocUnsafe(CHUNK);
    const finishLine = (): void => {
      const line = Buffer.concat(pending, pendingLen);
      out.lines.push(stripCr(line.toString('utf8')));
      shownBytes += line.length + 1;
      pending = [];
      pendingLen = 0;
    };
    for (;;) {
      if (pos >= scanEnd) break;
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) {
        // the end of the file: a last line without its newline
        if (pendingLen > 0 && !windowDone) finishLine();
        out.total = lineNo - (lastByte === 0x0a ? 1 : 0);
        out.counted = out.total;
        return out;
      }
      if (pos === 0 && buf.subarray(0, Math.min(bytesRead, 8000)).includes(0)) {
        out.binary = true;
        return out;
      }
      let from = 0;
      for (let i = 0; i < bytesRead; i++) {
        if (buf[i] !== 0x0a) continue;
        if (!windowDone && lineNo >= w.start) {
          takePart(buf.subarray(from, i));
          if (!windowDone) {
            finishLine();
            if (out.lines.length >= w.count) windowDone = true;
          }
        }
        lineNo++;
        from = i + 1;
      }
      if (!windowDone && lineNo >= w.start) takePart(buf.subarray(from, bytesRead));
      pos += bytesRead;
      if (windowDone && scanEnd === Infinity) scanEnd = pos + w.scanBytes;
      lastByte = buf[bytesRead - 1];
    }
    out.counted = lineNo - 1;
    return out;

    function takePart(part: Buffer): void {
      if (windowDone) return;
      const room = w.maxBytes - shownBytes - pendingLen;
      if (part.length <= room) {
        pending.push(Buffer.from(part));
        pendingLen += part.length;
        return;
      }
      // the line does not fit: the window ends before it, or with its start when it is the first
      if (out.lines.length === 0) {
        let end = Math.max(0, room);
        while (end > 0 && (part[end] & 0xc0) === 0x80) end--;
        pending.push(Buffer.from(part.subarray(0, end)));
        pendingLen += end;
        out.cutFirst = true;
        finishLine();
      }
      windowDone = true;
    }
  } finally {
    await fh.close();
  }
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}
