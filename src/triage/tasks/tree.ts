/** The SHA-256 of every file under a folder, by relative path with forward slashes. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export type TreeHashes = Map<string, string>;

// .vscode holds the editor's settings for the folder: a person's files, never the run's,
// so no check counts them as files the run wrote or changed.
const SKIP = new Set(['node_modules', '.git', '.vscode']);

export async function hashTree(root: string): Promise<TreeHashes> {
  const out: TreeHashes = new Map();
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (SKIP.has(e.name)) continue;
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(abs, r);
      else if (e.isFile())
        out.set(
          r,
          createHash('sha256')
            .update(await fs.readFile(abs))
            .digest('hex'),
        );
    }
  }
  await walk(root, '');
  return out;
}
