/**
 * Folders that survive a power cut. A folder made by mkdir is only an entry in its parent
 * until the parent is fsynced: without that, a cut can take the folder away with everything
 * in it, however carefully its files were synced. ensureDir therefore fsyncs the parent of
 * every folder it is asked for, and of each folder above it, once per process: what this
 * process has made durable (or found and synced) is remembered, by path and inode, so later
 * calls cost a stat.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { io } from './io';
import { isErrno } from './errno';

/** Folders (and files) this process knows to be durable: path -> "dev:ino" (one removed and made again is not the same). */
const known = new Map<string, string>();

/** Forgets what this process knew (the power-loss sweep's next life is a new process). */
export function forgetDurableDirs(): void {
  known.clear();
}

function idOf(p: string, dir = true): string | undefined {
  try {
    const st = fs.statSync(p);
    return st.isDirectory() === dir ? `${st.dev}:${st.ino}` : undefined;
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return undefined;
    throw e;
  }
}

/** True when this process made or found the file `file` durable as it is (same inode; its bytes are not compared). */
export function isKnownDurableFile(file: string): boolean {
  const id = idOf(path.resolve(file), false);
  return id !== undefined && known.get(path.resolve(file)) === id;
}

/** Remembers that the file `file` is durable now. */
export function noteDurableFile(file: string): void {
  const id = idOf(path.resolve(file), false);
  if (id !== undefined) known.set(path.resolve(file), id);
}

/**
 * Makes `dir`'s entry durable in its parent, and the parent's in its own, and so on up to
 * `top` (whose own entry is left as it is) or the root of the file system; each level once
 * per process. `dir` must exist.
 */
export async function makeDirDurable(dir: string, top?: string): Promise<void> {
  const stop = top === undefined ? undefined : path.resolve(top);
  const chain: [string, string][] = [];
  for (let d = path.resolve(dir); d !== stop;) {
    const id = idOf(d);
    if (id === undefined) throw Object.assign(new Error(`ENOENT: no such folder, ${d}`), { code: 'ENOENT', path: d });
    if (known.get(d) === id) break;
    const up = path.dirname(d);
    if (up !== d) await io().syncDir(up);
    chain.push([d, id]);
    if (up === d) break;
    d = up;
  }
  // Only once the whole chain is synced: a failure half-way leaves nothing wrongly known.
  for (const [d, id] of chain) known.set(d, id);
}

/**
 * Creates `dir` (and its parents) if missing, and makes it durable (makeDirDurable) unless
 * `sync` is false. Folders this call creates get `mode` exactly (chmod after mkdir, so a
 * loose umask cannot widen it); existing ones are left as they are.
 */
export async function ensureDir(dir: string, mode = 0o700, o: { sync?: boolean } = {}): Promise<void> {
  const abs = path.resolve(dir);
  if (known.has(abs) && known.get(abs) === idOf(abs)) return;
  const missing: string[] = [];
  for (let d = abs; ;) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(d);
    } catch (e) {
      if (!isErrno(e, 'ENOENT')) throw e;
    }
    if (st?.isDirectory()) break;
    if (st) {
      await fs.promises.mkdir(abs, { recursive: true }); // a file where a folder should be: node's own error
      break;
    }
    missing.push(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  for (const d of missing.reverse()) {
    try {
      await io().mkdir(d, mode);
    } catch (e) {
      if (!isErrno(e, 'EEXIST')) throw e;
      continue; // made meanwhile by someone else: theirs, left as it is
    }
    await io().chmod(d, mode);
  }
  if (o.sync ?? true) await makeDirDurable(abs);
}
