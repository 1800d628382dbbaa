/**
 * Walking a workspace folder: every file below it, as sorted workspace-relative paths with
 * forward slashes. node_modules and .git are skipped (in any spelling the file system takes
 * for them, see foldName), and so are the hidden folders (the run's state folder, see
 * hidden-folders.ts); symlinks are listed but never followed (a link to a folder cannot make
 * the walk loop or leave the workspace).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { toRel } from './paths';
import { hiddenIdentities, identityOf } from './hidden-folders';
import { foldName } from './fold-name';

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** Files (and symlinks) below `dir`, relative to `workspace`, sorted; nothing inside the folders `hidden`. */
export async function walkFiles(workspace: string, dir: string, hidden: readonly string[] = []): Promise<string[]> {
  const ids = hiddenIdentities(hidden);
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    const entries = await fs.readdir(d, { withFileTypes: true });
    for (const e of entries) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) {
        if (SKIPPED_DIRS.has(foldName(e.name))) continue;
        if (ids.size > 0 && ids.has(identityOf(await fs.lstat(abs)))) continue;
        await visit(abs);
      } else {
        out.push(toRel(workspace, abs));
      }
    }
  };
  await visit(dir);
  return out.sort();
}
