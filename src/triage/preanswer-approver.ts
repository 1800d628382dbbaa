/**
 * The approver of runs driven for another agent (triage mcp): a question with a kept answer gets
 * it; any other is answered "later", so the run pauses with the question saved, for the caller
 * to answer (RunHost.answer keeps it, the first answer wins, and resumes the run).
 */
import type { ApprovalAnswer, ApprovalRequest, Approver, LadderAnswer, LadderQuestion } from '../agent/approver';

/** approve / deny (an approval), or the ladder's rerun / done. */
export type PersonAnswer = 'approve' | 'deny' | { answer: 'rerun' } | { answer: 'done'; result: string };

export class PreanswerApprover implements Approver {
  private readonly kept = new Map<string, PersonAnswer>();
  private readonly asked = new Set<string>();

  constructor(private readonly by = 'the caller, over MCP (triage_answer)') {}

  /** Keeps an answer for the question; false when one is kept already (the first stands). */
  keep(runId: string, callId: string, a: PersonAnswer): boolean {
    const k = slot(runId, callId);
    if (this.kept.has(k)) return false;
    this.kept.set(k, a);
    return true;
  }

  /** The run asked about the call in the drive under way (and was told "later"). */
  askedNow(runId: string, callId: string): boolean {
    return this.asked.has(slot(runId, callId));
  }

  forgetAsked(runId: string): void {
    for (const k of this.asked) if (k.startsWith(runId + '\n')) this.asked.delete(k);
  }

  async approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const a = this.kept.get(slot(req.runId, req.callId));
    if (a === 'approve' || a === 'deny') return a;
    this.asked.add(slot(req.runId, req.callId));
    return 'later';
  }

  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    const a = this.kept.get(slot(q.runId, q.callId));
    if (a !== undefined && typeof a !== 'string') return a;
    this.asked.add(slot(q.runId, q.callId));
    return { answer: 'later' };
  }

  answeredBy(runId: string, callId: string): string | undefined {
    return this.kept.has(slot(runId, callId)) ? this.by : undefined;
  }
}

function slot(runId: string, callId: string): string {
  return `${runId}\n${callId}`;
}
