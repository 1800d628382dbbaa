/**
 * The crash points: the named points inside a checkpoint write (and around a tool's action)
 * where a test or the crash sweep can kill the process, and the hook that passes them. The
 * same words appear in log lines and in the crash sweep's table. Production passes no hook.
 * The points inside a file write (WritePoint) are src/disk/write-points.ts's: the atomic writer
 * passes them.
 */

/** The points of a save in the PostgreSQL store (pg/pg-run-handle.ts), as WritePoint's for a file (src/disk/write-points.ts): a save there is one statement, so it passes two points too. */
export enum PgWritePoint {
  /** The save's statement is about to be sent; nothing of it is in the database yet. */
  BeforeCommit = 'write:before-commit',
  /** The save's statement committed (the database answered); the save is durable. */
  Committed = 'write:committed',
}

/** The point between a tool acting and its result being saved (where `--die-after` kills). */
export const TOOL_ACTED = 'tool:acted';

/**
 * A crash hook: called with the name of each point as the run passes it (the loop's save
 * points, save-points.ts, and the points above). A test or the sweep simulates the process
 * dying here (an error isProcessDeath answers true for: the sweep's SimulatedCrash) or sends
 * SIGKILL. Production passes none.
 */
export type CrashHook = (point: string, detail?: { tool?: string; callId?: string }) => void;
