/**
 * The person in the loop, in VS Code: approvals in information messages (Approve, Deny,
 * Show Details), the ladder's question in a warning ("It Happened" asks for a note that
 * becomes the call's result, "Run It Again").
 *
 * A notification that is dismissed (or hides and stays pending) answers nothing: the
 * question stays open in the registry, the run stays paused with it saved, and the Runs
 * view's inline Approve/Deny (or a click on the question) answers it. Whichever answers
 * first wins. Cancelling the run answers "later", never "deny".
 */
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalRequest, Approver, LadderAnswer, LadderQuestion } from '../agent/approver';
import { approvalDetails, callTitle, ladderDetails } from './logic/details';
import type { QuestionRegistry, Ticket } from './logic/questions';
import { APPROVAL_BUTTONS, LADDER_BUTTONS, LADDER_NOTE_DEFAULT, LADDER_NOTE_PROMPT, approvalMessage, ladderMessage } from './logic/texts';
import type { MemoryDocs } from './docs';
import { showDetails } from './showDetails';

export type PersonAnswer = ApprovalAnswer | LadderAnswer;
export type Questions = QuestionRegistry<PersonAnswer>;

export interface ApproverDeps {
  questions: Questions;
  docs: MemoryDocs;
  log: vscode.LogOutputChannel;
}

function asApproval(a: PersonAnswer): ApprovalAnswer {
  return typeof a === 'string' ? a : 'later';
}

function asLadder(a: PersonAnswer): LadderAnswer {
  return typeof a === 'string' ? { answer: 'later' } : a;
}

export class NotificationApprover implements Approver {
  /** The notification loop of each open question, so "show it again" does not stack two. */
  private readonly showing = new Set<Ticket<PersonAnswer>>();
  private readonly requests = new Map<Ticket<PersonAnswer>, () => Promise<void>>();

  constructor(private readonly d: ApproverDeps) {}

  async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const message = approvalMessage(req.tool, req.title);
    const ticket = this.d.questions.ask({ runId: req.runId, callId: req.callId, kind: 'approval', tool: req.tool, message });
    if (ticket.settled) return asApproval(await ticket.answer);
    const view = approvalDetails(req);
    this.requests.set(ticket, async () => {
      const pick = await vscode.window.showInformationMessage(message, APPROVAL_BUTTONS.approve, APPROVAL_BUTTONS.deny, APPROVAL_BUTTONS.details);
      if (pick === APPROVAL_BUTTONS.approve) ticket.settle('approve');
      else if (pick === APPROVAL_BUTTONS.deny) ticket.settle('deny');
      else if (pick === APPROVAL_BUTTONS.details) {
        await showDetails(view, this.d.docs, req.runId).catch((e: Error) => this.d.log.warn(`could not show the details of ${req.callId}: ${e.message}`));
        return this.requests.get(ticket)?.();
      } else if (!ticket.settled) {
        this.d.log.info(`[${req.runId}] approval of ${req.tool} (${req.callId}) was dismissed; it stays pending in the Runs view`);
      }
    });
    return asApproval(await this.wait(ticket, signal));
  }

  async resolve(q: LadderQuestion, signal: AbortSignal): Promise<LadderAnswer> {
    const message = ladderMessage(q.tool, callTitle(q.args));
    const ticket = this.d.questions.ask({ runId: q.runId, callId: q.callId, kind: 'ladder', tool: q.tool, message });
    if (ticket.settled) return asLadder(await ticket.answer);
    const view = ladderDetails(q);
    this.requests.set(ticket, async () => {
      const pick = await vscode.window.showWarningMessage(message, LADDER_BUTTONS.happened, LADDER_BUTTONS.again, LADDER_BUTTONS.details);
      if (pick === LADDER_BUTTONS.again) ticket.settle({ answer: 'rerun' });
      else if (pick === LADDER_BUTTONS.happened) {
        const note = await vscode.window.showInputBox({ title: message, prompt: LADDER_NOTE_PROMPT, placeHolder: LADDER_NOTE_DEFAULT, ignoreFocusOut: true });
        if (note === undefined) return this.requests.get(ticket)?.(); // escaped: ask the question again
        ticket.settle({ answer: 'done', result: note.trim() || LADDER_NOTE_DEFAULT });
      } else if (pick === LADDER_BUTTONS.details) {
        await showDetails(view, this.d.docs, q.runId).catch((e: Error) => this.d.log.warn(`could not show the details of ${q.callId}: ${e.message}`));
        return this.requests.get(ticket)?.();
      } else if (!ticket.settled) {
        this.d.log.info(`[${q.runId}] the question about ${q.tool} (${q.callId}) was dismissed; it stays pending in the Runs view`);
      }
    });
    return asLadder(await this.wait(ticket, signal));
  }

  /** Shows an open question's notification again (a click on it in the Runs view); false if it is not open here. */
  showAgain(runId: string, callId: string): boolean {
    const t = this.d.questions.get(runId, callId);
    if (!t || !this.requests.has(t)) return false;
    this.show(t);
    return true;
  }

  private show(ticket: Ticket<PersonAnswer>): void {
    if (this.showing.has(ticket) || ticket.settled) return;
    const ask = this.requests.get(ticket);
    if (!ask) return;
    this.showing.add(ticket);
    ask()
      .catch((e: Error) => this.d.log.error(`could not ask about ${ticket.info.callId}: ${e.message}`))
      .finally(() => this.showing.delete(ticket));
  }

  private async wait(ticket: Ticket<PersonAnswer>, signal: AbortSignal): Promise<PersonAnswer> {
    const onAbort = (): void => void ticket.settle('later');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    this.show(ticket);
    try {
      return await ticket.answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.requests.delete(ticket);
    }
  }
}
