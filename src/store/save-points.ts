/**
 * The loop's five save points, and the named crash points inside a checkpoint write.
 * The same words appear in the README, in log lines and in the crash sweep's table.
 */
export enum SavePoint {
  /** (1) A run starts or resumes: the restart count is incremented and saved before anything else. */
  RunStarted = 'run-started',
  /** (2) A model reply has arrived, before any of its calls run: phase `tools`, the reply and its call IDs. */
  ReplyArrived = 'reply-arrived',
  /** (3) An attempt marker just before a call that can change something (after the yes, if it needs approval). */
  AttemptMarked = 'attempt-marked',
  /** (4) After a call's result. */
  ResultSaved = 'result-saved',
  /** (5) The run pauses for a person, or finishes. */
  PausedOrDone = 'paused-or-done',
}

/**
 * Points inside one checkpoint write where a test (or the sweep) can crash the process. A save
 * appends a journal record (JournalTorn, JournalAppended); a compaction, and a run's first
 * write, replace the snapshot (TempSynced, Renamed). Either way a save passes two points.
 */
export enum WritePoint {
  /** The temp file is written and fsynced; the old checkpoint is still in place. */
  TempSynced = 'write:temp-synced',
  /** The temp file was renamed over the checkpoint; the directory is not yet fsynced. */
  Renamed = 'write:renamed',
  /** Half of a journal record is appended, unsynced: a crash here leaves a torn tail, cut on the next open. */
  JournalTorn = 'write:journal-torn',
  /** A journal record is appended and synced: the save is durable. */
  JournalAppended = 'write:journal-appended',
}

/** The same for the PostgreSQL store (pg/pg-run-handle.ts): a save there is one statement, so it passes two points too. */
export enum PgWritePoint {
  /** The save's statement is about to be sent; nothing of it is in the database yet. */
  BeforeCommit = 'write:before-commit',
  /** The save's statement committed (the database answered); the save is durable. */
  Committed = 'write:committed',
}

/** The point between a tool acting and its result being saved (where `--die-after` kills). */
export const TOOL_ACTED = 'tool:acted';

/**
 * A crash hook: called with the name of each point as the run passes it. A test or the
 * sweep throws SimulatedCrash (or sends SIGKILL) from here. Production passes none.
 */
export type CrashHook = (point: string, detail?: { tool?: string; callId?: string }) => void;

/** Why a save happened: one of the loop's five save points, or a person's choice outside the loop. */
export type SaveReason = SavePoint | 'workspace-accepted';
