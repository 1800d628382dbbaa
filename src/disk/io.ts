/**
 * The one door through which the store changes the disk: the checkpoint store, the journal,
 * the content store, the lock and its owner record, and the tools that write the workspace
 * all create, write, sync, rename and remove files through `io()`. Reads go straight to
 * node's fs (they change nothing).
 *
 * The default is node's fs. The power-loss sweep installs a tracing implementation
 * (trace-io.ts) that also keeps a model of what the disk would hold after a power cut, and
 * can cut the power after any operation; the in-process sweep installs node's fs with its
 * syncs skipped (its crashes keep the page cache, so syncs only cost time there).
 */
import * as fs from 'node:fs/promises';
import { isErrno } from './errno';

export type OpenFlags =
  /** Create or truncate. */
  | 'w'
  /** Create; EEXIST when the file is there. */
  | 'wx'
  /** Create if missing; every write goes to the end. */
  | 'a'
  /** An existing file, to truncate or write. */
  | 'r+'
  /** An existing file, only to sync it. */
  | 'r';

/** An open file. close() always closes it for real (it changes nothing on the disk). */
export interface IoFile {
  /** Writes all of `buf` at the file's position (its end, for 'a'). */
  write(buf: Buffer): Promise<void>;
  truncate(length: number): Promise<void>;
  /** fsync: the bytes and the file's metadata are durable. */
  sync(): Promise<void>;
  /** fdatasync: the bytes (and the size) are durable. */
  datasync(): Promise<void>;
  close(): Promise<void>;
}

export interface Io {
  open(file: string, flags: OpenFlags, mode?: number): Promise<IoFile>;
  /** Makes one folder (its parent must exist); EEXIST when it is there. */
  mkdir(dir: string, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Removes a file, or a folder with `recursive`; with `force`, a missing path is no error. */
  rm(p: string, o?: { recursive?: boolean; force?: boolean }): Promise<void>;
  symlink(target: string, p: string): Promise<void>;
  /** Permission bits only: not part of what survives a power cut in the model. */
  chmod(p: string, mode: number): Promise<void>;
  /** fsyncs a folder, so the entries made, renamed or removed in it survive a power cut. A no-op where folders cannot be fsynced. */
  syncDir(dir: string): Promise<void>;
}

class NodeFile implements IoFile {
  constructor(
    private readonly fh: fs.FileHandle,
    private readonly syncs: boolean,
  ) {}
  async write(buf: Buffer): Promise<void> {
    let off = 0;
    while (off < buf.length) off += (await this.fh.write(buf, off, buf.length - off)).bytesWritten;
  }
  truncate(length: number): Promise<void> {
    return this.fh.truncate(length);
  }
  async sync(): Promise<void> {
    if (this.syncs) await this.fh.sync();
  }
  async datasync(): Promise<void> {
    if (this.syncs) await this.fh.datasync();
  }
  close(): Promise<void> {
    return this.fh.close();
  }
}

/** Node's fs. `syncs: false` skips every fsync (only for crash sweeps whose crashes keep the page cache, or that model the disk themselves). */
export function nodeIo(o: { syncs?: boolean } = {}): Io {
  const syncs = o.syncs ?? true;
  return {
    async open(file, flags, mode) {
      return new NodeFile(await fs.open(file, flags, mode), syncs);
    },
    async mkdir(dir, mode) {
      await fs.mkdir(dir, mode === undefined ? {} : { mode });
    },
    rename: (from, to) => fs.rename(from, to),
    unlink: (file) => fs.unlink(file),
    rm: (p, ro = {}) => fs.rm(p, ro),
    symlink: (target, p) => fs.symlink(target, p),
    chmod: (p, mode) => fs.chmod(p, mode),
    async syncDir(dir) {
      if (!syncs) return;
      let fh: fs.FileHandle | undefined;
      try {
        fh = await fs.open(dir, 'r');
        await fh.sync();
      } catch (e) {
        if (!isErrno(e, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'EACCES')) throw e;
      } finally {
        await fh?.close();
      }
    },
  };
}

const NODE_IO = nodeIo();
let current: Io = NODE_IO;

/** The I/O layer in use. */
export function io(): Io {
  return current;
}

/** Installs `next` (undefined: node's fs) and returns the one it replaces, to put back afterwards. */
export function useIo(next: Io | undefined): Io {
  const prev = current;
  current = next ?? NODE_IO;
  return prev;
}
