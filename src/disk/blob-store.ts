/**
 * The content-addressed store beside the checkpoints: <stateDir>/blobs/<sha256>. It keeps the
 * bytes of every file a run wrote, so the agent's version can be restored or diffed later.
 * Blobs are shared by hash between runs and never deleted with a run. File-system only (no
 * backend in it): the file backend keeps its runs' files here, and the editor reads a state
 * folder's blobs by hash.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { sha256Hex } from '../core/sha256';
import { CorruptCheckpointError } from '../core/errors';
import { ensureDir, isErrno, nonce, writeFileAtomic } from './atomic-write';
import { syncFileDurable } from './durable-write';
import { noteDurableFile } from './durable-dirs';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The content store's folder in a state folder (state-layout.ts lists the rest of the file backend's). */
export function blobsDir(stateDir: string): string {
  return path.join(stateDir, 'blobs');
}

export class BlobStore {
  readonly dir: string;

  constructor(
    stateDir: string,
    private readonly sync = true,
  ) {
    this.dir = blobsDir(stateDir);
  }

  pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new TypeError(`not a SHA-256 hex digest: ${JSON.stringify(sha256)}`);
    return path.join(this.dir, sha256);
  }

  /** Stores `content` under its SHA-256 unless already there (written atomically, 0600; durable either way); returns the hash. */
  async put(content: Buffer): Promise<string> {
    const sha = sha256Hex(content);
    const file = this.pathOf(sha);
    try {
      const st = await fs.stat(file);
      if (st.size === content.length) {
        // Already there; but maybe only in the page cache, left by a process killed before it synced.
        if (this.sync) await syncFileDurable(file);
        return sha;
      }
    } catch (e) {
      if (!isErrno(e, 'ENOENT')) throw e;
    }
    await ensureDir(this.dir, 0o700, { sync: this.sync });
    await writeFileAtomic(file, path.join(this.dir, `.${sha}.${nonce()}.tmp`), content, { sync: this.sync });
    if (this.sync) noteDurableFile(file);
    return sha;
  }

  /** The bytes stored under `sha256`, or undefined when absent. Bytes that no longer match their hash are a CorruptCheckpointError. */
  async get(sha256: string): Promise<Buffer | undefined> {
    const file = this.pathOf(sha256);
    let buf: Buffer;
    try {
      buf = await fs.readFile(file);
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return undefined;
      throw e;
    }
    if (sha256Hex(buf) !== sha256) throw new CorruptCheckpointError(file, 'its bytes no longer match the SHA-256 they are stored under');
    return buf;
  }
}
