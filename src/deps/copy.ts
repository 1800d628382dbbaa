/**
 * `--deps copy`: the user's checkout's installed node_modules copied into a cause's worktree as
 * hard links (`cp -al`: every folder the worktree's own, every package file shared with the
 * checkout), where reuse would be allowed (reuse.ts: the same lock file, nothing linking to the
 * repository's own code). A few hundred packages take a tenth of a second this way, against
 * seconds for an install from the cache. Unlike reuse, what the tests create or replace in
 * node_modules stays in the worktree; the caches tools keep there (`.cache`, `.vite`, `.vitest`),
 * which they may rewrite in place, are left out, so the tests start them afresh in the worktree.
 * Where hard links cannot be made (another file system), the files are copied.
 *
 * Crash-safe: each folder is copied under a temporary name, then renamed into place, so a folder
 * in place is whole; a copy a killed life left half done is removed and made again.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeModulesFolders } from './reuse';

/** What tools keep in node_modules and may write in place: never shared with the checkout. */
export const NODE_MODULES_CACHES = ['.cache', '.vite', '.vitest'];

const PARTIAL = '.triage-copy-partial';

/** Copies each of the checkout's node_modules folders into the worktree at the same place; the copied paths and how. */
export async function copyNodeModules(checkoutInstallDir: string, worktreeInstallDir: string): Promise<{ copied: string[]; linked: boolean }> {
  const copied: string[] = [];
  let linked = true;
  for (const rel of nodeModulesFolders(checkoutInstallDir)) {
    const from = path.join(checkoutInstallDir, rel);
    const at = path.join(worktreeInstallDir, rel);
    if (!fs.existsSync(path.dirname(at))) continue; // a package the base commit does not have
    const partial = `${at}${PARTIAL}`;
    await fs.promises.rm(partial, { recursive: true, force: true });
    if (!(await hardLinkCopy(from, partial))) {
      linked = false;
      await fs.promises.rm(partial, { recursive: true, force: true });
      await fs.promises.cp(from, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    }
    for (const cache of NODE_MODULES_CACHES) await fs.promises.rm(path.join(partial, cache), { recursive: true, force: true });
    await fs.promises.rm(at, { recursive: true, force: true });
    await fs.promises.rename(partial, at);
    copied.push(rel);
  }
  return { copied, linked };
}

/** `cp -al FROM TO` (GNU coreutils, BusyBox): true when it made the copy, false where it cannot (no such cp, another file system). */
function hardLinkCopy(from: string, to: string): Promise<boolean> {
  if (process.platform === 'win32') return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn('cp', ['-al', from, to], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}
