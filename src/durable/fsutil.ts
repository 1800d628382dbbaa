/**
 * Small file-system helpers shared by the checkpoint store, the content store and the lock:
 * crash-safe replace (temp file, fsync, rename, directory fsync) and private directories.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SimulatedCrash } from '../core/errors';
import { WritePoint } from './savepoints';

/** True when `e` is a Node system error with one of the given codes (e.g. 'ENOENT'). */
export function isErrno(e: unknown, ...codes: string[]): e is NodeJS.ErrnoException {
  return typeof e === 'object' && e !== null && codes.includes((e as NodeJS.ErrnoException).code ?? '');
}

/** Eight random hex characters, for temp-file names. */
export function nonce(): string {
  return randomBytes(4).toString('hex');
}

/**
 * Creates `dir` (and its parents) if missing. Directories this call creates get `mode`
 * exactly (chmod after mkdir, so a loose umask cannot widen it); existing ones are left as they are.
 */
export async function ensureDir(dir: string, mode = 0o700): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true, mode });
  if (first === undefined) return;
  // mkdir returns the first directory it created; chmod it and every one below it down to `dir`.
  let d = path.resolve(dir);
  const top = path.resolve(first);
  for (;;) {
    await fs.chmod(d, mode);
    if (d === top) break;
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
}

/** Fsyncs a directory so a rename inside it survives a power cut. A no-op where directories cannot be fsynced (Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(dir, 'r');
    await fh.sync();
  } catch (e) {
    if (!isErrno(e, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'EACCES')) throw e;
  } finally {
    await fh?.close();
  }
}

export interface AtomicWriteOptions {
  /** fsync the temp file and the directory (default true). */
  sync?: boolean;
  /** Called with WritePoint.TempSynced and WritePoint.Renamed; may throw SimulatedCrash. */
  crash?: (point: WritePoint) => void;
}

/**
 * Replaces `file` with `data` so that, whenever a crash lands, the disk holds either the old
 * file or the new one: write `tmp` (same directory, created 0600 with 'wx'), fsync, close,
 * rename over `file`, fsync the directory. On an ordinary failure the temp file is removed; a
 * SimulatedCrash propagates untouched and leaves the files exactly as a real crash would.
 */
export async function writeFileAtomic(file: string, tmp: string, data: string | Buffer, o: AtomicWriteOptions = {}): Promise<void> {
  const sync = o.sync ?? true;
  const fh = await fs.open(tmp, 'wx', 0o600);
  let renamed = false;
  try {
    try {
      await fh.writeFile(data);
      if (sync) await fh.sync();
    } finally {
      await fh.close();
    }
    o.crash?.(WritePoint.TempSynced);
    await fs.rename(tmp, file);
    renamed = true;
    o.crash?.(WritePoint.Renamed);
    if (sync) await fsyncDir(path.dirname(file));
  } catch (e) {
    if (!renamed && !(e instanceof SimulatedCrash)) await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}
