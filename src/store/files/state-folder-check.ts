/**
 * Before a file store reads or writes, its state folder and each subfolder that exists
 * (state-layout.ts) must be safe to trust: a real folder (not a symbolic link, which would send
 * blobs or checkpoints wherever it points), owned by the user running, and writable by no one
 * else (who could plant or change checkpoints, blobs or links). Anything else is refused with
 * an UnsafeStateFolderError naming the path and the fix; nothing is changed, not even a mode:
 * a folder that has been open to others may already hold what they put there, and the state
 * folder may be a shared one such as /tmp, whose mode is not ours to change. Folders this
 * program makes are 0700 from the start (durable-dirs.ts), so only a folder made by hand or
 * changed since meets the refusal.
 *
 * Owner and mode are checked where they mean something (not on Windows); links everywhere.
 */
import * as fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import { isErrno } from '../../disk/errno';
import { STATE_SUBFOLDERS } from './state-layout';

/** A state folder (or one of its subfolders) that is not safe to use; bad input: exit 2 in the CLI. */
export class UnsafeStateFolderError extends BadInputError {
  constructor(
    readonly stateDir: string,
    readonly folder: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`The state folder ${stateDir} was not used: ${folder} ${problem}. ${fix} Nothing was read or written.`);
  }
}

async function lstatOf(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return undefined;
    throw e;
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`;
}

/** Why folder `p` (stat `st`) cannot be trusted, and what to do; undefined when it can. */
async function problemOf(p: string, st: Stats, top: boolean, uid: number | undefined): Promise<{ problem: string; fix: string } | undefined> {
  if (st.isSymbolicLink()) {
    const target = await fs.readlink(p).catch(() => '?');
    return {
      problem: `is a symbolic link (to ${target}), and the state is only kept in real folders, so that nothing is written where a link someone planted points`,
      fix: top ? `Give the real folder instead (${target}), or remove the link (rm ${p}).` : `Remove the link (rm ${p}); the folder is made afresh.`,
    };
  }
  if (!st.isDirectory()) return { problem: 'is not a folder', fix: `Move it out of the way (mv ${p} ${p}.old).` };
  if (uid === undefined) return undefined;
  if (st.uid !== uid) {
    return {
      problem: `belongs to user id ${st.uid}, not to you (user id ${uid}), and whoever owns it can change the runs kept in it`,
      fix: top
        ? `Use a state folder of your own, or, if this one is yours, chown -R ${uid} ${p}.`
        : `If the folder is yours, chown -R ${uid} ${p}; otherwise move it aside.`,
    };
  }
  if ((st.mode & 0o022) !== 0) {
    const shared = (st.mode & 0o1000) !== 0;
    return {
      problem: `can be written by ${(st.mode & 0o002) !== 0 ? 'anyone' : 'its group'} (mode ${octal(st.mode)}), who could plant or change checkpoints, blobs or links in it`,
      fix: shared
        ? `It is a shared folder (sticky bit): give a folder of your own inside it (mkdir -m 700 ${path.join(p, 'triage-state')}).`
        : `Make it private (chmod 700 ${p}) once you are sure nobody else has put anything in it.`,
    };
  }
  return undefined;
}

/** Refuses (UnsafeStateFolderError) a state folder that is not safe to trust; a missing folder, or subfolder, is fine (it is made 0700). */
export async function checkStateFolder(stateDir: string): Promise<void> {
  const top = path.resolve(stateDir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const st = await lstatOf(top);
  if (!st) return;
  const bad = await problemOf(top, st, true, uid);
  if (bad) throw new UnsafeStateFolderError(top, top, bad.problem, bad.fix);
  for (const name of STATE_SUBFOLDERS) {
    const p = path.join(top, name);
    const sub = await lstatOf(p);
    if (!sub) continue;
    const subBad = await problemOf(p, sub, false, uid);
    if (subBad) throw new UnsafeStateFolderError(top, p, subBad.problem, subBad.fix);
  }
}
