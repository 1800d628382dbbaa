/**
 * Writing a file so that it survives a power cut before anyone relies on it: the agent's
 * writes into the workspace (write_file, code_patch, restoring the agent's version), whose
 * SHA-256 goes into the run's ledger only after this returns.
 *
 * - Folders the write creates are made, and each fsynced into its parent (durable-dirs.ts),
 *   up to `top` (the workspace: its own entry is not the write's to make durable).
 * - A new file is created, written and fsynced, then its folder is fsynced.
 * - An existing file is replaced atomically (writeFileAtomic, the one atomic writer): a temp
 *   file beside it (its mode copied) is written and fsynced, renamed over it, and the folder
 *   fsynced. A cut leaves the old bytes or the new ones, never a file cut short (which
 *   code_patch's lookup could not judge).
 *   A symlink at the path is written through, as a plain write would.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { io } from './io';
import { isErrno } from './errno';
import { isKnownDurableFile, makeDirDurable, noteDurableFile } from './durable-dirs';
import { nonce, writeFileAtomic } from './atomic-write';

function lstatOf(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return undefined;
    throw e;
  }
}

/** Makes the missing folders above `file`, up to `top`, and makes the chain durable. */
async function durableParent(file: string, top: string): Promise<string> {
  const dir = path.dirname(file);
  const missing: string[] = [];
  for (let d = dir; d !== top && lstatOf(d) === undefined; d = path.dirname(d)) missing.push(d);
  for (const d of missing.reverse()) {
    try {
      await io().mkdir(d);
    } catch (e) {
      if (!isErrno(e, 'EEXIST')) throw e;
    }
  }
  await makeDirDurable(dir, top);
  return dir;
}

/** Writes `data` to `file` (below `top`) durably; see the file's comment. */
export async function writeFileDurable(file: string, data: Buffer, o: { top: string }): Promise<void> {
  const top = path.resolve(o.top);
  let target = path.resolve(file);
  let st = lstatOf(target);
  if (st?.isSymbolicLink()) {
    target = fs.realpathSync(target);
    st = lstatOf(target);
  }
  const dir = await durableParent(target, top);
  if (st === undefined) {
    const fh = await io().open(target, 'wx');
    try {
      await fh.write(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await io().syncDir(dir);
  } else {
    fs.accessSync(target, fs.constants.W_OK); // a file we may not write stays as it is (EACCES), as with a plain write
    const tmp = path.join(dir, `.${path.basename(target)}.${nonce()}.tmp`);
    await writeFileAtomic(target, tmp, data, { mode: st.mode & 0o7777 });
  }
  noteDurableFile(target);
}

/**
 * Makes an existing file durable as it is now: its bytes, its entry, and the folders above it
 * up to `top` (default: all of them); what a killed process left in the page cache, before
 * something relies on it. Once per file per process, unless `always` (bytes that may have changed since).
 */
export async function syncFileDurable(file: string, o: { top?: string; always?: boolean } = {}): Promise<void> {
  const target = fs.realpathSync(path.resolve(file));
  if (!o.always && isKnownDurableFile(target)) return;
  const fh = await io().open(target, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  const dir = path.dirname(target);
  await io().syncDir(dir);
  await makeDirDurable(dir, o.top === undefined ? undefined : path.resolve(o.top));
  noteDurableFile(target);
}
