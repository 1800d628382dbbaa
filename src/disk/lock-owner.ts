/**
 * The owner record kept inside a run's lock directory, and the test of whether its owner is
 * still alive. It is what lets the next process reclaim a dead process's lock at once instead
 * of waiting out proper-lockfile's stale period (see lock.ts).
 */
import { z } from 'zod';
import * as fsCb from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isErrno } from './errno';
import { io } from './io';
import { currentBoot } from './boot';

export const OWNER_FILE = 'owner.json';

export const LockOwnerSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22), on Linux: tells a reused pid apart. */
  startTime: z.string().optional().catch(undefined),
  /** /proc/sys/kernel/random/boot_id, on Linux: a different boot means the owner is gone. */
  bootId: z.string().optional().catch(undefined),
  /** Random, unique to one acquisition: a reclaimer removes a lock only if it is still this one. */
  nonce: z.string(),
  acquiredAt: z.string(),
});
export type LockOwner = z.infer<typeof LockOwnerSchema>;

export type OwnerStatus = 'alive' | 'dead' | 'unknown';

interface ProcInfo {
  state: string;
  startTime: string;
}

/** State letter and start time of a process from /proc/<pid>/stat; undefined off Linux or if it is gone. */
export async function procInfo(pid: number): Promise<ProcInfo | undefined> {
  if (process.platform !== 'linux') return undefined;
  let text: string;
  try {
    text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
  if (fields.length < 20) return undefined;
  return { state: fields[0], startTime: fields[19] };
}

let startTimeCache: Promise<string | undefined> | undefined;
/** This process's start time: it cannot change while the process lives, so it is read once. */
function ownStartTime(): Promise<string | undefined> {
  startTimeCache ??= procInfo(process.pid).then((i) => i?.startTime);
  return startTimeCache;
}

/** The record for this process, with a fresh nonce. */
export async function currentOwner(): Promise<LockOwner> {
  const o: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    nonce: randomBytes(8).toString('hex'),
    acquiredAt: new Date().toISOString(),
  };
  const start = await ownStartTime();
  if (start) o.startTime = start;
  const boot = (await currentBoot()).id;
  if (boot) o.bootId = boot;
  return o;
}

/**
 * Writes the owner record into a freshly made lock directory: temp file, fsync, rename, fsync
 * the directory. Readers never see half of it, and after a power cut the lock directory holds
 * the whole record (or, if the cut came first, none: see lock.ts for that case).
 */
export async function writeOwner(lockDir: string, owner: LockOwner): Promise<void> {
  const tmp = path.join(lockDir, `${OWNER_FILE}.tmp`);
  const fh = await io().open(tmp, 'w', 0o600);
  try {
    await fh.write(Buffer.from(JSON.stringify(owner)));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await io().rename(tmp, path.join(lockDir, OWNER_FILE));
  await io().syncDir(lockDir);
}

/**
 * The most bytes of an owner record that are read. A record is about 200 bytes of JSON; a
 * bigger file is not one this program wrote, and is never loaded whole (a planted 300 MB
 * record would otherwise cost gigabytes to read and parse).
 */
export const OWNER_MAX_BYTES = 4096;

/** What an owner record holds: its owner, or why it has none that can be used (absent: no `problem`). */
export interface OwnerRecord {
  owner?: LockOwner;
  /** Why the record exists but names no owner ("it is 300000000 bytes, ..."); undefined when it is absent or fine. */
  problem?: string;
}

/** Opened without following a link and without blocking on a FIFO (0 where the platform has no such flag). */
const OPEN_FLAGS = fsCb.constants.O_RDONLY | (fsCb.constants.O_NOFOLLOW ?? 0) | (fsCb.constants.O_NONBLOCK ?? 0);

/** The owner record of a lock directory, read at most OWNER_MAX_BYTES of it. */
export async function readOwnerRecord(lockDir: string): Promise<OwnerRecord> {
  const file = path.join(lockDir, OWNER_FILE);
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(file, OPEN_FLAGS);
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return {};
    return { problem: `its owner record ${file} cannot be opened (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  let text: string;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { problem: `its owner record ${file} is not a regular file` };
    const tooBig = `its owner record ${file} is bigger than the ${OWNER_MAX_BYTES} bytes an owner record can be, so it was not read`;
    if (st.size > OWNER_MAX_BYTES) return { problem: `${tooBig} (${st.size} bytes)` };
    const buf = Buffer.alloc(OWNER_MAX_BYTES + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > OWNER_MAX_BYTES) return { problem: tooBig };
    }
    text = buf.subarray(0, got).toString('utf8');
  } catch (e) {
    return { problem: `its owner record ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    await fh.close();
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: `its owner record ${file} is not JSON (a process may have died while writing it)` };
  }
  const r = LockOwnerSchema.safeParse(raw);
  return r.success ? { owner: r.data } : { problem: `its owner record ${file} is not an owner record this program writes` };
}

/** The owner record of a lock directory, or undefined when it is absent or unreadable (readOwnerRecord says why). */
export async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  // An unreadable record is no record: the lock is then judged by its age alone (lock.ts).
  return (await readOwnerRecord(lockDir)).owner;
}

/**
 * Whether the owner still runs. 'dead' only when certain: same host, and the machine was
 * rebooted since, or the pid is gone (ESRCH), a zombie, or now a different process (its
 * start time differs). Another host's owner is 'unknown': only the stale period can decide.
 */
export async function ownerStatus(o: LockOwner): Promise<OwnerStatus> {
  if (o.hostname !== os.hostname()) return 'unknown';
  const boot = (await currentBoot()).id;
  if (o.bootId && boot && o.bootId !== boot) return 'dead';
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    if (isErrno(e, 'ESRCH')) return 'dead';
    if (!isErrno(e, 'EPERM')) return 'unknown';
    // EPERM: the pid exists but belongs to another user; its start time still tells.
  }
  const info = await procInfo(o.pid);
  if (info) {
    if (info.state === 'Z' || info.state === 'X') return 'dead';
    if (o.startTime !== undefined && info.startTime !== o.startTime) return 'dead';
  }
  return 'alive';
}

/** "pid 1234 on host x", for LockedError. */
export function describeOwner(o: LockOwner): string {
  return `pid ${o.pid} on host ${o.hostname}, since ${o.acquiredAt}`;
}
