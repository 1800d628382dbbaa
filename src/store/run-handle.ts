/**
 * The contract between the loop and the checkpoint store: one open, locked run.
 */
import type { RunState } from './state';
import type { SaveReason } from './save-points';
import type { StateEdit } from './state-edit';

export interface RunHandle {
  readonly runId: string;
  /** Where the run is kept, for messages: the state folder holding its checkpoint, lock and content store, or the database URL without its password. */
  readonly location: string;
  /**
   * Saves the state crash-safely: exactly the changes a StateEdit took since its last save, or,
   * given the state itself, all of it. Takes no AbortSignal on purpose: a save is never
   * cancelled, so a shutdown still records where the run stopped. Throws
   * LockCompromisedError if the lock was lost.
   */
  save(edit: StateEdit | RunState, point: SaveReason): Promise<void>;
  /** Throws LockCompromisedError if the lock was lost; the loop calls it before every side effect. */
  assertHeld(): void;
  /** Stores bytes in the content-addressed store beside the checkpoint; returns the SHA-256 hex. */
  putBlob(content: Buffer): Promise<string>;
  /** Reads bytes from the content store, or undefined when absent. */
  getBlob(sha256: string): Promise<Buffer | undefined>;
  /** Releases the lock. */
  close(): Promise<void>;
}
