/**
 * Small file-system helpers shared by the checkpoint store, the content store and the lock:
 * crash-safe replace (temp file, fsync, rename, directory fsync) and private, durable
 * directories (durable-dirs.ts).
 * Every change goes through the I/O layer (io.ts).
 */
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessDeath } from '../core/process-death';
import { WritePoint } from './write-points';
import { io } from './io';

export { isErrno } from './errno';
export { ensureDir } from './durable-dirs';

/** Eight random hex characters, for temp-file names. */
export function nonce(): string {
  return randomBytes(4).toString('hex');
}

/** Fsyncs a directory so a rename inside it survives a power cut. A no-op where directories cannot be fsynced (Windows). */
export function fsyncDir(dir: string): Promise<void> {
  return io().syncDir(dir);
}

export interface AtomicWriteOptions {
  /** fsync the temp file and the directory (default true). */
  sync?: boolean;
  /**
   * The new file's mode: the temp file is created with it and then chmod-ed to it, so the umask
   * does not narrow it (a replaced workspace file keeps its mode). Default: created 0600.
   */
  mode?: number;
  /** Called with WritePoint.TempSynced and WritePoint.Renamed; may throw a simulated process death (isProcessDeath). */
  crash?: (point: WritePoint) => void;
}

/**
 * Replaces `file` with `data` so that, whenever a crash lands, the disk holds either the old
 * file or the new one: write `tmp` (same directory, created 0600 with 'wx', or with `mode` and
 * chmod-ed to it), fsync, close, rename over `file`, fsync the directory. The one atomic writer:
 * the state files (checkpoint snapshots, issues, blobs, recordings) and the workspace files the
 * ledger records (durable-write.ts) are replaced through it. On an ordinary failure the temp file is removed; a
 * simulated process death (isProcessDeath) propagates untouched and leaves the files exactly as a real crash would.
 */
export async function writeFileAtomic(file: string, tmp: string, data: string | Buffer, o: AtomicWriteOptions = {}): Promise<void> {
  const sync = o.sync ?? true;
  const fh = await io().open(tmp, 'wx', o.mode ?? 0o600);
  let renamed = false;
  try {
    try {
      await fh.write(typeof data === 'string' ? Buffer.from(data) : data);
      if (sync) await fh.sync();
    } finally {
      await fh.close();
    }
    if (o.mode !== undefined) await io().chmod(tmp, o.mode);
    o.crash?.(WritePoint.TempSynced);
    await io().rename(tmp, file);
    renamed = true;
    o.crash?.(WritePoint.Renamed);
    if (sync) await fsyncDir(path.dirname(file));
  } catch (e) {
    if (!renamed && !isProcessDeath(e))
      await io()
        .rm(tmp, { force: true })
        .catch(() => undefined);
    throw e;
  }
}
