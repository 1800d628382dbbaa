/**
 * A worker's approver: a question a person answered in the store (an editor connected to the
 * same database, or `triage answer`) gets that answer; any other is answered by the worker's
 * own mode (`--approve yes|no`), or, with `ask` (the default), left for a person: "later", so
 * the run pauses with the question saved and waits in the store.
 */
import type { ApprovalAnswer, ApprovalRequest, Approver, LadderAnswer, LadderQuestion } from '../agent/approver';
import type { RunAnswers } from '../store/answers';

/** What a worker answers itself: yes (approve all), no (deny all), ask (nothing: leave it to a person). */
export type ApproveMode = 'ask' | 'yes' | 'no';

export class StoredAnswerApprover implements Approver {
  constructor(
    private readonly answers: RunAnswers,
    private readonly mode: ApproveMode,
  ) {}

  async approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const a = await this.answers.get(req.runId, 'approval', req.callId);
    if (a?.kind === 'approval') return a.answer;
    return this.mode === 'yes' ? 'approve' : this.mode === 'no' ? 'deny' : 'later';
  }

  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    const a = await this.answers.get(q.runId, 'ladder', q.callId);
    if (a?.kind === 'ladder') return a.answer === 'done' ? { answer: 'done', result: a.result } : { answer: 'rerun' };
    return { answer: 'later' };
  }
}
