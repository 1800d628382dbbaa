/**
 * The Approver: the person in the loop. It approves or denies calls that need approval,
 * and answers the resolution ladder's last question. "later" means nobody answered now
 * (a notification was dismissed, a terminal is not interactive): the run pauses, the
 * question stays saved in the state, and it is asked again on resume. "later" is never
 * taken as a denial.
 */
export interface ApprovalRequest {
  runId: string;
  callId: string;
  tool: string;
  /** Raw arguments as the model wrote them. */
  args: string;
  /** Readable rendering of the arguments (from the tool's describe()). */
  title: string;
  detail: string;
  diff?: { path: string; before: string; after: string };
}

export type ApprovalAnswer = 'approve' | 'deny' | 'later';

export interface LadderQuestion {
  runId: string;
  callId: string;
  tool: string;
  args: string;
  /** Why the ladder could not decide by itself. */
  reason: string;
  startedAt: string;
}

/** "rerun": it did not happen, run it again. "done": it happened; `result` becomes the call's result. */
export type LadderAnswer = { answer: 'rerun' } | { answer: 'done'; result: string } | { answer: 'later' };

export interface Approver {
  approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  resolve(q: LadderQuestion, signal: AbortSignal): Promise<LadderAnswer>;
  /** Who gave the last answer about the call, in words ("you, in the Run panel"), for the run's history; optional. */
  answeredBy?(runId: string, callId: string): string | undefined;
}
