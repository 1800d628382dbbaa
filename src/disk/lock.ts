/**
 * One process per run: a proper-lockfile lock on the run's checkpoint, taken before anything
 * is read. A second live process gets LockedError at once (retries 0).
 *
 * How fast a dead process's lock is reclaimed, and why:
 * - Same host (the usual case, e.g. `triage run` SIGKILLed and run again): AT ONCE. Each lock
 *   directory holds an owner record (pid, hostname, process start time and boot ID on Linux,
 *   a nonce). When the lock is held, the owner is checked; a pid that is gone, a zombie, or
 *   reused by another process (different start time), or a lock from before a reboot, is
 *   dead, so the lock is removed and taken again. Waiting out the stale period would make
 *   "the same command twice is crash, then resume" hang for 10 s.
 * - No readable owner record (the process died between making the lock directory and writing
 *   the record, which is synced): at once if the directory was last touched before this
 *   machine's boot (a power cut; a live holder refreshes it every staleMs/2), otherwise after
 *   the stale period.
 * - Another host: after the stale period (staleMs, default 10 s), via proper-lockfile's own
 *   mtime check.
 *
 * Two reclaimers can both judge the same lock dead. Removal therefore happens under a second,
 * short-lived lock (<runId>.json.reclaim.lock) and only if the lock is still the one judged
 * dead (same owner nonce; or, without a record, the same directory, untouched); afterwards
 * both race on proper-lockfile's mkdir, which only one wins.
 *
 * If the lock is compromised (its refresh failed, e.g. after a long sleep or the directory was
 * removed), `compromised` is set and onCompromised is told; the process is never crashed by it.
 */
import * as fsCb from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as lockfile from 'proper-lockfile';
import { BadInputError, LockedError } from '../core/errors';
import { isErrno } from './errno';
import { io } from './io';
import { currentOwner, describeOwner, ownerStatus, readOwner, readOwnerRecord, writeOwner, type LockOwner } from './lock-owner';
import { currentBoot } from './boot';

export const DEFAULT_STALE_MS = 10_000;

/** The mode of a lock directory (and of the short reclaim guard's). */
export const LOCK_DIR_MODE = 0o700;

export interface LockOptions {
  /** proper-lockfile's stale period (minimum 2000); default 10 s. */
  staleMs?: number;
  /** Told (once) when the lock is lost. */
  onCompromised?: (reason: string) => void;
}

export interface RunLock {
  /** The lock directory. */
  readonly lockPath: string;
  /** Undefined while the lock is held; why it was lost once it is compromised. */
  readonly compromised: string | undefined;
  /** Releases the lock (idempotent; a no-op once compromised, since the directory may be another process's now). */
  release(): Promise<void>;
}

export function lockPathOf(checkpoint: string): string {
  return `${checkpoint}.lock`;
}

/**
 * The fs proper-lockfile uses for run locks: mkdir also writes the owner record (before
 * proper-lockfile probes the directory's mtime, so the record does not look like a foreign
 * touch), and rmdir removes the record with the directory.
 */
type Callback = (err: NodeJS.ErrnoException | null) => void;

function done(work: Promise<void>, cb: Callback): void {
  work.then(
    () => cb(null),
    (e: NodeJS.ErrnoException) => cb(e),
  );
}

/** The fs proper-lockfile uses for the short reclaim guard: its changes go through the I/O layer too. */
const plainFs = {
  mkdir(p: string, cb: Callback): void {
    done(makePrivateDir(p), cb);
  },
  rmdir(p: string, cb: Callback): void {
    done(io().rm(p, { recursive: true }), cb);
  },
  rmdirSync(p: string): void {
    fsCb.rmSync(p, { recursive: true, force: true });
  },
  stat: fsCb.stat,
  utimes: fsCb.utimes,
  realpath: fsCb.realpath,
};

/**
 * Makes lock directory `p` private like every folder of the state: 0700, chmod after mkdir so
 * a loose umask cannot widen it, then `fill` (the owner record). Left behind by neither step's
 * failure: a lock without its owner would hold others off for the stale period.
 */
async function makePrivateDir(p: string, fill?: () => Promise<void>): Promise<void> {
  await io().mkdir(p, LOCK_DIR_MODE);
  try {
    await io().chmod(p, LOCK_DIR_MODE);
    await fill?.();
  } catch (e) {
    await io()
      .rm(p, { recursive: true, force: true })
      .catch(() => undefined);
    throw e;
  }
}

async function makeOwnedLock(p: string): Promise<void> {
  await makePrivateDir(p, async () => writeOwner(p, await currentOwner()));
}

const ownerFs = {
  ...plainFs,
  mkdir(p: string, cb: Callback): void {
    done(makeOwnedLock(p), cb);
  },
};

function staleOf(o: LockOptions): number {
  return Math.max(o.staleMs ?? DEFAULT_STALE_MS, 2000);
}

/** Takes the lock of checkpoint file `checkpoint` (which need not exist yet) for run `runId`. */
export async function acquireRunLock(runId: string, checkpoint: string, o: LockOptions = {}): Promise<RunLock> {
  const lockPath = lockPathOf(checkpoint);
  try {
    return await take(checkpoint, lockPath, o);
  } catch (e) {
    if (!isErrno(e, 'ELOCKED')) throw asLockError(e, runId, checkpoint);
  }
  const { owner, problem } = await readOwnerRecord(lockPath);
  const dead = await deadHolder(lockPath, owner);
  if (dead) {
    try {
      await removeDeadLock(checkpoint, lockPath, dead);
    } catch (e) {
      if (!isErrno(e, 'ELOCKED')) throw e;
      throw new LockedError(runId, lockPath, `another process is reclaiming the lock of ${dead.who}, which died`);
    }
    try {
      return await take(checkpoint, lockPath, o);
    } catch (e) {
      if (!isErrno(e, 'ELOCKED')) throw asLockError(e, runId, checkpoint);
    }
    const winner = await readOwner(lockPath);
    throw new LockedError(runId, lockPath, winner ? describeOwner(winner) : undefined);
  }
  throw new LockedError(
    runId,
    lockPath,
    owner ? describeOwner(owner) : undefined,
    problem ? `Its owner is unknown: ${problem}. The lock is taken over once nothing has refreshed it for ${staleOf(o) / 1000} s.` : undefined,
  );
}

function asLockError(e: unknown, runId: string, checkpoint: string): unknown {
  if (isErrno(e, 'ENOENT')) {
    return new BadInputError(`No run ${runId}: its folder ${path.dirname(checkpoint)} does not exist. Check the state directory.`);
  }
  return e;
}

async function take(checkpoint: string, lockPath: string, o: LockOptions): Promise<RunLock> {
  const stale = staleOf(o);
  let compromised: string | undefined;
  let released = false;
  const release = await lockfile.lock(checkpoint, {
    lockfilePath: lockPath,
    realpath: false,
    retries: 0,
    stale,
    update: stale / 2,
    fs: ownerFs,
    onCompromised: (err: Error) => {
      if (compromised !== undefined) return;
      compromised = err.message || 'its refresh failed';
      try {
        o.onCompromised?.(compromised);
      } catch {
        // A listener's failure must not become an uncaught exception in proper-lockfile's timer.
      }
    },
  });
  return {
    lockPath,
    get compromised() {
      return compromised;
    },
    async release() {
      if (released || compromised !== undefined) return;
      released = true;
      try {
        await release();
      } catch (e) {
        if (!isErrno(e, 'ERELEASED', 'ENOTACQUIRED')) throw e;
      }
    },
  };
}

/** Removes a dead owner's lock directory, under the reclaim lock and only if `nonce` still owns it. */
/** A lock holder judged dead, and how to tell the lock is still that one. */
interface DeadHolder {
  who: string;
  isStill(): Promise<boolean>;
}

async function statOf(p: string): Promise<fsCb.Stats | undefined> {
  try {
    return await fs.stat(p);
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return undefined;
    throw e;
  }
}

/** True when a lock directory was last touched before this machine's boot: its holder was stopped by the reboot. */
async function fromBeforeBoot(st: fsCb.Stats): Promise<boolean> {
  const started = (await currentBoot()).startedMs;
  return started !== undefined && st.mtimeMs < started;
}

/** The lock's holder when it is certainly dead: its owner died, or it has no owner record and dates from before this boot. */
async function deadHolder(lockPath: string, owner: LockOwner | undefined): Promise<DeadHolder | undefined> {
  if (owner) {
    if ((await ownerStatus(owner)) !== 'dead') return undefined;
    return { who: describeOwner(owner), isStill: async () => (await readOwner(lockPath))?.nonce === owner.nonce };
  }
  const st = await statOf(lockPath);
  if (!st || !(await fromBeforeBoot(st))) return undefined;
  const id = `${st.ino}:${st.mtimeMs}`;
  return {
    who: 'a process from before the last reboot (no owner record)',
    isStill: async () => {
      const now = await statOf(lockPath);
      return now !== undefined && `${now.ino}:${now.mtimeMs}` === id && (await readOwner(lockPath)) === undefined;
    },
  };
}

async function removeDeadLock(checkpoint: string, lockPath: string, dead: DeadHolder): Promise<void> {
  const releaseGuard = await lockfile.lock(`${checkpoint}.reclaim`, {
    realpath: false,
    stale: 2000,
    // Held for milliseconds; the retries span the guard's own stale period in case a reclaimer died holding it.
    retries: { retries: 40, factor: 1.3, minTimeout: 5, maxTimeout: 100 },
    fs: plainFs,
    onCompromised: () => undefined,
  });
  try {
    if (await dead.isStill()) await io().rm(lockPath, { recursive: true, force: true });
  } finally {
    await releaseGuard().catch(() => undefined);
  }
}

/**
 * Whether a run is open somewhere, for status views (no lock is taken): the lock directory
 * exists and its owner is alive, or (owner on another host or unreadable) it is fresher than
 * staleMs and, without an owner record, from this boot.
 */
export async function isRunLocked(checkpoint: string, staleMs = DEFAULT_STALE_MS): Promise<boolean> {
  const lockPath = lockPathOf(checkpoint);
  const st = await statOf(lockPath);
  if (!st) return false;
  const owner = await readOwner(lockPath);
  const status = owner ? await ownerStatus(owner) : (await fromBeforeBoot(st)) ? 'dead' : 'unknown';
  if (status !== 'unknown') return status === 'alive';
  return st.mtimeMs >= Date.now() - Math.max(staleMs, 2000);
}
