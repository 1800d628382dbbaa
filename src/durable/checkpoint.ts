/**
 * The checkpoint store: create, open (lock first, then load and validate), read, list and
 * delete runs in a state directory. Layout and modes: see paths.ts. Writes: checkpoint-handle.ts.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunHandle } from './handle';
import type { CrashHook } from './savepoints';
import { SavePoint } from './savepoints';
import { decodeState, type RunState } from './state';
import { BadInputError, CorruptCheckpointError, LockCompromisedError, RunExistsError } from './errors';
import { ensureDir, isErrno } from './fsutil';
import { acquireRunLock, isRunLocked, DEFAULT_STALE_MS, type RunLock } from './lock';
import { assertRunId, blobsDir, isRunTempName, runIdOfFile, runPath, runsDir } from './paths';
import { CheckpointHandle } from './checkpoint-handle';

export { runPath } from './paths';

export interface StoreOptions {
  /** Default true: fsync file and directory. The in-process crash sweep sets false. */
  sync?: boolean;
  /** Called with WritePoint.TempSynced and WritePoint.Renamed inside each checkpoint write (createRun's first one too). */
  crash?: CrashHook;
  /** proper-lockfile stale period; default 10_000. */
  staleMs?: number;
  /** Told when the lock is lost. */
  onCompromised?: (e: LockCompromisedError) => void;
}

export interface RunListing {
  runId: string;
  file: string;
  state?: RunState;
  error?: CorruptCheckpointError;
  locked: boolean;
}

async function lockRun(stateDir: string, runId: string, opts: StoreOptions): Promise<RunLock> {
  return acquireRunLock(runId, runPath(stateDir, runId), {
    staleMs: opts.staleMs ?? DEFAULT_STALE_MS,
    onCompromised: (reason) => opts.onCompromised?.(new LockCompromisedError(runId, reason)),
  });
}

function handleOf(stateDir: string, runId: string, lock: RunLock, opts: StoreOptions): CheckpointHandle {
  return new CheckpointHandle(runId, stateDir, lock, { sync: opts.sync ?? true, ...(opts.crash ? { crash: opts.crash } : {}) });
}

function noSuchRun(stateDir: string, runId: string): BadInputError {
  return new BadInputError(`No run ${runId} in ${stateDir}. List the runs there with "triage status".`);
}

/** Removes temp files left by a crashed write of this run's checkpoint (only ever called with the lock held). */
async function removeLeftoverTemps(stateDir: string, runId: string): Promise<void> {
  const dir = runsDir(stateDir);
  for (const name of await fs.readdir(dir)) {
    if (isRunTempName(name, runId)) await fs.rm(path.join(dir, name), { force: true });
  }
}

async function loadState(stateDir: string, runId: string): Promise<RunState> {
  const file = runPath(stateDir, runId);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if (isErrno(e, 'ENOENT')) throw noSuchRun(stateDir, runId);
    throw e;
  }
  return decodeCheckpoint(text, file, runId);
}

/** decodeState, plus: the file must hold the run its name says. */
function decodeCheckpoint(text: string, file: string, runId: string): RunState {
  const state = decodeState(text, file);
  if (state.runId !== runId) throw new CorruptCheckpointError(file, `it holds run ${JSON.stringify(state.runId)}, not ${runId}`);
  return state;
}

/**
 * Creates a new run: takes its lock, refuses if a checkpoint for the run ID exists
 * (RunExistsError: IDs are never reused), writes the initial checkpoint atomically.
 */
export async function createRun(stateDir: string, state: RunState, opts: StoreOptions = {}): Promise<RunHandle> {
  const runId = state.runId;
  assertRunId(runId);
  await ensureDir(stateDir);
  await ensureDir(runsDir(stateDir));
  await ensureDir(blobsDir(stateDir));
  const lock = await lockRun(stateDir, runId, opts);
  const handle = handleOf(stateDir, runId, lock, opts);
  try {
    const exists = await fs.lstat(runPath(stateDir, runId)).then(() => true, (e) => (isErrno(e, 'ENOENT') ? false : Promise.reject(e)));
    if (exists) throw new RunExistsError(runId);
    await handle.save(state, SavePoint.RunStarted);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * Opens an existing run: takes the lock BEFORE reading anything (LockedError at once if a live
 * process holds it), removes temp files a crashed write left, then loads and validates. A
 * corrupt checkpoint is a CorruptCheckpointError naming the file; the lock is released and the
 * file left untouched. handle.close() releases the lock; after a SimulatedCrash it is also how
 * a test or the in-process sweep abandons the handle as a dying process would (nothing is saved).
 */
export async function openRun(stateDir: string, runId: string, opts: StoreOptions = {}): Promise<{ handle: RunHandle; state: RunState }> {
  assertRunId(runId);
  const lock = await lockRun(stateDir, runId, opts);
  const handle = handleOf(stateDir, runId, lock, opts);
  try {
    const state = await loadState(stateDir, runId);
    await removeLeftoverTemps(stateDir, runId);
    return { handle, state };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** Reads a checkpoint without locking (for status views). */
export async function readRun(stateDir: string, runId: string): Promise<RunState> {
  assertRunId(runId);
  return loadState(stateDir, runId);
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
      const [text, st] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
      mtimes.set(runId, st.mtimeMs);
      l.state = decodeCheckpoint(text, file, runId);
    } catch (e) {
      if (isErrno(e, 'ENOENT')) continue; // deleted meanwhile
      l.error = e instanceof CorruptCheckpointError ? e : new CorruptCheckpointError(file, `it cannot be read (${(e as Error).message})`);
    }
    l.locked = await isRunLocked(file);
    listings.push(l);
  }
  return listings.sort((a, b) => timeOf(b, mtimes) - timeOf(a, mtimes) || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
}

/** Deletes a run's checkpoint (takes the lock first; LockedError if open elsewhere). Blobs are left (shared by hash). */
export async function deleteRun(stateDir: string, runId: string): Promise<void> {
  assertRunId(runId);
  const lock = await lockRun(stateDir, runId, {});
  try {
    try {
      await fs.unlink(runPath(stateDir, runId));
    } catch (e) {
      if (isErrno(e, 'ENOENT')) throw noSuchRun(stateDir, runId);
      throw e;
    }
    await removeLeftoverTemps(stateDir, runId);
  } finally {
    await lock.release();
  }
}
