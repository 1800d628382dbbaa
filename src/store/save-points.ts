/**
 * The loop's five save points, and why a save happened. The same words appear in the README,
 * in log lines and in the crash sweep's table. The points inside a checkpoint write where a
 * test can crash the process are in crash-points.ts.
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

/** Why a save happened: one of the loop's five save points, or a person's choice outside the loop. */
export type SaveReason = SavePoint | 'workspace-accepted';
