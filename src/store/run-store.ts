/**
 * The one store interface the runner, the job, the run administration and the front ends use.
 * Two backends implement it: the local files of a state folder (files/file-run-store.ts, the
 * default: embedded, no set-up, a flock-style lock per run) and a PostgreSQL database (pg/,
 * leases with fencing, shared by a fleet of workers and the editors connected to it). Each also
 * keeps the runs' event records. open-store.ts opens one from its folder or URL; nothing above
 * src/store names a backend: what only one backend has is an optional member here (the state
 * folder, the folder check, answers, issues, the queue). The loop, the ladder and the tools only
 * ever see the RunHandle one of them hands out.
 */
import type { RunHandle } from './run-handle';
import type { RunState } from './state';
import type { RunEventStore } from './run-event';
import type { CrashHook } from './crash-points';
import type { CorruptCheckpointError, LockCompromisedError } from '../core/errors';
import type { RunAnswers } from './answers';
import type { IssueStore } from './issues';

export interface StoreOptions {
  /** Default true: fsync file and directory. The in-process crash sweep sets false. */
  sync?: boolean;
  /**
   * Called at the named points inside each write: WritePoint.JournalTorn and JournalAppended when a
   * save appends to the journal; TempSynced and Renamed when the snapshot is replaced (createRun's
   * first write, and each compaction).
   */
  crash?: CrashHook;
  /** proper-lockfile stale period (the lease's length on PostgreSQL); default 10_000. */
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

export interface OpenedRun {
  handle: RunHandle;
  state: RunState;
  /** The run was enqueued and no process has run it yet: its first life is a start, not a restart. */
  neverStarted?: boolean;
}

export interface RunStore {
  readonly kind: 'files' | 'postgres';
  /** Where the runs are, for people and messages: the state folder, or the database URL without its password. */
  readonly where: string;
  /** The folder a new run's copy of its task's sample goes into (<folder>/<runId>). */
  readonly workspacesDir: string;
  /** The state folder of a store on local files (its tracker/ folder lives there); undefined for a database. */
  readonly stateFolder?: string;
  /** Creates a new run, open (locked or leased) for the caller; RunExistsError for an ID in use. */
  createRun(state: RunState, opts?: StoreOptions): Promise<RunHandle>;
  /** Opens a run: locked or leased before anything is read (LockedError at once if a live process has it), then loaded and validated. */
  openRun(runId: string, opts?: StoreOptions): Promise<OpenedRun>;
  /** A run's current state without opening it (status views). */
  readRun(runId: string): Promise<RunState>;
  /** Whether a run with this ID exists (its first write is complete). */
  hasRun(runId: string): Promise<boolean>;
  /** Every run, newest first; unreadable ones listed with their error. */
  listRuns(): Promise<RunListing[]>;
  /** Deletes a run (taking its lock or lease first); its blobs stay (shared by hash). */
  deleteRun(runId: string): Promise<void>;
  /** Bytes from the content store, or undefined when absent. */
  getBlob(sha256: string): Promise<Buffer | undefined>;
  /** The runs' event records (issue 13's history: lives, ladder decisions, answers...); `sync: false` only for crash sweeps. */
  events(o?: { sync?: boolean }): RunEventStore;
  /** Lets go of what the store holds open (a database pool); its handles must be closed first. */
  close(): Promise<void>;

  /** Whether a live process holds the run's lock, from the lock alone (nothing of the run is read); absent where a listing says it (a database: `RunListing.locked`). */
  runLocked?(runId: string): Promise<boolean>;
  /** Resolves once the store is known safe to use (the file store checks its state folder: UnsafeStateFolderError); absent where there is nothing to check. */
  checked?(): Promise<void>;
  /** The answers people left for paused runs' questions, for the worker that continues them (a shared store). */
  answers?(): RunAnswers;
  /** The embedded tracker's issues kept inside the store (a database); a state folder's are in its tracker/ folder instead. */
  issues?(): IssueStore;
  /** Adds a run that a worker will start (no lock or lease: it is runnable at once). */
  enqueue?(state: RunState): Promise<void>;
  /**
   * A worker's pick: the oldest runnable run nobody holds (queued, interrupted, or paused with an
   * answer waiting for its question), opened for the caller. Undefined when there is none.
   */
  claimNext?(opts?: StoreOptions): Promise<OpenedRun | undefined>;
  /** Keeps workers off a run that stopped for a person (an error they cannot fix); opening it by hand clears it. */
  hold?(runId: string, reason: string): Promise<void>;
}

/** A store a fleet of workers shares: it queues runs, hands each to one worker, and keeps people's answers. */
export type QueueStore = RunStore & Required<Pick<RunStore, 'enqueue' | 'claimNext' | 'hold' | 'answers'>>;

/** The store as a queue, or undefined when it has none (a state folder). */
export function queueOf(store: RunStore): QueueStore | undefined {
  const q = store as Partial<QueueStore>;
  return q.enqueue && q.claimNext && q.hold && q.answers ? (store as QueueStore) : undefined;
}
