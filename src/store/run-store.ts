/**
 * The one store interface the runner, the job, the run administration and the CLI use. Two
 * backends implement it: the local files of a state folder (files/file-run-store.ts, the default:
 * embedded, no set-up, a flock-style lock per run) and a PostgreSQL database (pg/, leases with
 * fencing, shared by a fleet of workers and the editors connected to it). Each also keeps the
 * runs' event records (run-event.ts). The loop, the ladder
 * and the tools only ever see the RunHandle one of them hands out.
 */
import type { RunHandle } from './run-handle';
import type { StoreOptions, RunListing } from './files/checkpoint';
import type { RunState } from './state';
import type { RunEventStore } from './run-event';

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
}
