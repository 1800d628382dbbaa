/**
 * Copying a folder tree so that the copy survives a power cut once this returns: a new run's
 * workspace, copied from its task's sample, is relied on (its files hashed, patched, judged)
 * from the run's first step. Every file is written and fsynced (its mode copied), every folder
 * fsynced once its entries are made, and the new top folder fsynced into its parent (and
 * that one up, as far as this process does not know it durable already).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { io } from './io';
import { ensureDir, makeDirDurable } from './durable-dirs';

/** Copies `src` to `dest`, which must not exist (EEXIST otherwise); its parent is made (0700, durable) if missing. Regular files, folders and symlinks. */
export async function copyTreeDurable(src: string, dest: string): Promise<void> {
  await ensureDir(path.dirname(path.resolve(dest)));
  await copyDir(path.resolve(src), path.resolve(dest));
  await makeDirDurable(path.resolve(dest));
}

async function copyDir(src: string, dest: string): Promise<void> {
  const st = await fs.stat(src);
  await io().mkdir(dest);
  for (const e of await fs.readdir(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dest, e.name);
    if (e.isDirectory()) await copyDir(from, to);
    else if (e.isSymbolicLink()) await io().symlink(await fs.readlink(from), to);
    else if (e.isFile()) await copyFile(from, to);
    else throw new Error(`cannot copy ${from}: it is neither a file, a folder nor a symlink`);
  }
  await io().chmod(dest, st.mode & 0o7777);
  await io().syncDir(dest);
}

async function copyFile(from: string, to: string): Promise<void> {
  const mode = (await fs.stat(from)).mode & 0o7777;
  const fh = await io().open(to, 'wx', mode);
  try {
    await fh.write(await fs.readFile(from));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await io().chmod(to, mode);
}
