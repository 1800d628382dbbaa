/**
 * Folders the tools treat as outside the workspace wherever they are: the run's state folder
 * (checkpoints, the ledger's blobs, the embedded tracker's issues) and the store's workspaces
 * folder, when the workspace holds them (`--state .triage`). A folder that holds the workspace
 * (the default <state>/workspaces/<runId>) hides nothing.
 *
 * Compared by identity (device and inode) of each folder on the way to a path, so another
 * spelling (".TRIAGE" on a case-insensitive file system) or a symlink inside the workspace
 * that leads there reaches the same folder and is refused the same.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, realPathOf } from './real-path';

/** The identity of an existing file or folder. */
export function identityOf(st: fs.Stats): string {
  return `${st.dev}:${st.ino}`;
}

/** The identities of the hidden folders that exist now, each with the folder as given. */
export function hiddenIdentities(hidden: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const h of hidden) {
    try {
      const st = fs.statSync(h);
      if (st.isDirectory()) ids.set(identityOf(st), h);
    } catch {
      // a folder that does not exist holds nothing to hide
    }
  }
  return ids;
}

/** The hidden folder that `abs` (inside the workspace `root`) is or is inside, if any. */
export function hiddenFolderOf(root: string, abs: string, hidden: readonly string[]): string | undefined {
  if (hidden.length === 0) return undefined;
  const ids = hiddenIdentities(hidden);
  if (ids.size === 0) return undefined;
  const realRoot = realPathOf(root);
  // From the deepest existing folder on the real path up to the workspace root, never above it.
  for (let d = realPathOf(abs); isInside(realRoot, d); d = path.dirname(d)) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(d);
    } catch {
      st = undefined; // not there yet: its parent decides
    }
    const found = st && ids.get(identityOf(st));
    if (found !== undefined) return found;
    if (d === realRoot) break;
  }
  return undefined;
}
