/**
 * The checkpoint store: create, open (lock first, then load and validate), read, list and
 * delete runs in a state directory. A run is two files (state-layout.ts, journal-file.ts): the
 * snapshot <runId>.json (the whole state as of one save, replaced atomically) and the journal
 * <runId>.jsonl (one checksummed record per later save). runPath names the snapshot, which
 * exists from the run's first write on. Writes: checkpoint-handle.ts; reads: checkpoint-load.ts.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunHandle } from '../run-handle';
import type { RunState } from '../state';
import type { StoreOptions, RunListing } from '../run-store';
import { BadInputError, CorruptCheckpointError, LockCompromisedError, RunExistsError } from '../../core/errors';
import { ensureDir, fsyncDir, isErrno } from '../../disk/atomic-write';
import { io } from '../../disk/io';
import { acquireRunLock, isRunLocked, DEFAULT_STALE_MS, type RunLock } from '../../disk/lock';
import { assertRunId, blobsDir, isRunTempName, runIdOfFile, runPath, runsDir } from './state-layout';
import { CheckpointHandle } from './checkpoint-handle';
import { loadRun, noSuchRun, runFiles } from './checkpoint-load';
import { removeJournal, truncateJournal } from './journal-file';

export { runPath } from './state-layout';

export type { StoreOptions, RunListing } from '../run-store';

async function lockRun(stateDir: string, runId: string, opts: StoreOptions): Promise<RunLock> {
  return acquireRunLock(runId, runPath(stateDir, runId), {
    staleMs: opts.staleMs ?? DEFAULT_STALE_MS,
    onCompromised: (reason) => opts.onCompromised?.(new LockCompromisedError(runId, reason)),
  });
}

function handleOf(stateDir: string, runId: string, lock: RunLock, opts: StoreOptions): CheckpointHandle {
  return new CheckpointHandle(runId, stateDir, lock, { sync: opts.sync ?? true, ...(opts.crash ? { crash: opts.crash } : {}) });
}

/** Removes temp files left by a crashed write of this run's checkpoint (only ever called with the lock held). */
async function removeLeftoverTemps(stateDir: string, runId: string): Promise<void> {
  const dir = runsDir(stateDir);
  for (const name of await fs.readdir(dir)) {
    if (isRunTempName(name, runId)) await io().rm(path.join(dir, name), { force: true });
  }
}

/**
 * Creates a new run: takes its lock, refuses if a snapshot for the run ID exists
 * (RunExistsError: IDs are never reused), removes what a crashed earlier attempt or deletion
 * left (temp files, a journal without its snapshot), writes the first snapshot atomically.
 */
export async function createRun(stateDir: string, state: RunState, opts: StoreOptions = {}): Promise<RunHandle> {
  const runId = state.runId;
  assertRunId(runId);
  // Durable folders (each fsynced into its parent) before anything in them is relied on.
  const sync = { sync: opts.sync ?? true };
  await ensureDir(runsDir(stateDir), 0o700, sync);
  await ensureDir(blobsDir(stateDir), 0o700, sync);
  const lock = await lockRun(stateDir, runId, opts);
  const handle = handleOf(stateDir, runId, lock, opts);
  try {
    const exists = await fs.lstat(runPath(stateDir, runId)).then(
      () => true,
      (e) => (isErrno(e, 'ENOENT') ? false : Promise.reject(e)),
    );
    if (exists) throw new RunExistsError(runId);
    await removeLeftoverTemps(stateDir, runId);
    await removeJournal(runFiles(stateDir, runId).journal);
    await handle.create(state);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * Opens an existing run: takes the lock BEFORE reading anything (LockedError at once if a live
 * process holds it), loads and validates, then tidies what a crash left: a torn journal tail is
 * cut, a stale journal emptied, temp files removed. A corrupt run is a CorruptCheckpointError
 * naming the file; the lock is released and the files left untouched. handle.close() releases
 * the lock; after a simulated process death (isProcessDeath) it is also how a test or the in-process sweep abandons the
 * handle as a dying process would (nothing is saved).
 */
export async function openRun(stateDir: string, runId: string, opts: StoreOptions = {}): Promise<{ handle: RunHandle; state: RunState }> {
  assertRunId(runId);
  const lock = await lockRun(stateDir, runId, opts);
  const handle = handleOf(stateDir, runId, lock, opts);
  try {
    const run = await loadRun(stateDir, runId, true);
    // A killed process may have left the run's files renamed or made but not yet durable (its
    // next step was the folder's fsync): make them durable before building on them, and
    // before emptying a stale journal, whose snapshot may be such a rename.
    if (opts.sync ?? true) await fsyncDir(runsDir(stateDir));
    const j = run.journal;
    const keep = j.stale ? 0 : j.goodBytes;
    if (j.exists && keep < j.goodBytes + j.tornBytes) await truncateJournal(run.files.journal, keep, opts.sync ?? true);
    await removeLeftoverTemps(stateDir, runId);
    handle.begin({ seq: run.seq, snapshotBytes: run.snapshotBytes, journalBytes: keep, journalExists: j.exists }, run.state);
    return { handle, state: run.state };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** Reads a run's current state without locking (for status views); changes nothing on disk. */
export async function readRun(stateDir: string, runId: string): Promise<RunState> {
  assertRunId(runId);
  return (await loadRun(stateDir, runId, false)).state;
}

function timeOf(l: RunListing, mtimes: Map<string, number>): number {
  const t = l.state ? Date.parse(l.state.createdAt) : NaN;
  return Number.isNaN(t) ? (mtimes.get(l.runId) ?? 0) : t;
}

/** Every run in the state dir, newest first (by creation); corrupt ones are listed with their error, never thrown. */
export async function listRuns(stateDir: string): Promise<RunListing[]> {
  let names: string[];
  try {
    names = await fs.readdir(runsDir(stateDir));
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return [];
    throw e;
  }
  const mtimes = new Map<string, number>();
  const listings: RunListing[] = [];
  for (const name of names) {
    const runId = runIdOfFile(name);
    if (runId === undefined) continue;
    const file = runPath(stateDir, runId);
    const l: RunListing = { runId, file, locked: false };
    try {
      const [run, st] = await Promise.all([loadRun(stateDir, runId, false), fs.stat(file)]);
      mtimes.set(runId, st.mtimeMs);
      l.state = run.state;
    } catch (e) {
      if (isErrno(e, 'ENOENT') || e instanceof BadInputError) continue; // deleted meanwhile
      l.error = e instanceof CorruptCheckpointError ? e : new CorruptCheckpointError(file, `it cannot be read (${(e as Error).message})`);
    }
    l.locked = await isRunLocked(file);
    listings.push(l);
  }
  return listings.sort((a, b) => timeOf(b, mtimes) - timeOf(a, mtimes) || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
}

/** Deletes a run's snapshot and journal (takes the lock first; LockedError if open elsewhere). Blobs are left (shared by hash). */
export async function deleteRun(stateDir: string, runId: string): Promise<void> {
  assertRunId(runId);
  const lock = await lockRun(stateDir, runId, {});
  try {
    let existed = true;
    try {
      await io().unlink(runPath(stateDir, runId));
    } catch (e) {
      if (!isErrno(e, 'ENOENT')) throw e;
      existed = false;
    }
    // The snapshot first: a crash between the two leaves a journal no run lists, which createRun removes.
    await removeJournal(runFiles(stateDir, runId).journal);
    await removeLeftoverTemps(stateDir, runId);
    if (!existed) throw noSuchRun(stateDir, runId);
  } finally {
    await lock.release();
  }
}
