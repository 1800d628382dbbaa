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
import { APPROVAL_BUTTONS, LADDER_BUTTONS, LADDER_NOTE_DEFAULT, LADDER_NOTE_PROMPT, approvalMessage, decidedMessage, ladderMessage } from './logic/texts';
import { describeCall } from '../transcript/calls';
import type { MemoryDocs } from './docs';
import { showDetails } from './show-details';

export type PersonAnswer = ApprovalAnswer | LadderAnswer;
export type Questions = QuestionRegistry<PersonAnswer>;

/** Who answered, in words, for the run's history ("Approved by you, in the Run panel"). */
export const ANSWERED_BY = {
  notification: 'you, in the notification',
  dialog: 'you, in the Ask Again dialog',
  panel: 'you, in the Run panel',
  runsView: 'you, in the Runs view',
  palette: 'you, from the command palette',
  chat: 'you (or your agent), in the chat',
  stopped: 'the run stopping',
} as const;

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
  private readonly details = new WeakMap<Ticket<PersonAnswer>, ReturnType<typeof approvalDetails>>();

  constructor(private readonly d: ApproverDeps) {}

  answeredBy(runId: string, callId: string): string | undefined {
    return this.d.questions.decided(runId, callId)?.by;
  }

  async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const message = approvalMessage(req.tool, req.title);
    const title = describeCall({ id: req.callId, name: req.tool, args: req.args }).title;
    const ticket = this.d.questions.ask({ runId: req.runId, callId: req.callId, kind: 'approval', tool: req.tool, message, title });
    if (ticket.settled) return asApproval(await ticket.answer);
    const view = approvalDetails(req);
    this.details.set(ticket, view);
    this.requests.set(ticket, async () => {
      const pick = await vscode.window.showInformationMessage(message, APPROVAL_BUTTONS.approve, APPROVAL_BUTTONS.deny, APPROVAL_BUTTONS.details);
      if (pick === APPROVAL_BUTTONS.approve || pick === APPROVAL_BUTTONS.deny) {
        // A notification clicked after its question was decided elsewhere (or closed) no longer acts; it says so.
        if (!ticket.settle(pick === APPROVAL_BUTTONS.approve ? 'approve' : 'deny', ANSWERED_BY.notification)) this.stale(ticket);
      } else if (pick === APPROVAL_BUTTONS.details) {
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
    const title = describeCall({ id: q.callId, name: q.tool, args: q.args }).title;
    const ticket = this.d.questions.ask({ runId: q.runId, callId: q.callId, kind: 'ladder', tool: q.tool, message, title });
    if (ticket.settled) return asLadder(await ticket.answer);
    const view = ladderDetails(q);
    this.details.set(ticket, view);
    this.requests.set(ticket, async () => {
      const pick = await vscode.window.showWarningMessage(message, LADDER_BUTTONS.happened, LADDER_BUTTONS.again, LADDER_BUTTONS.details);
      if (pick === LADDER_BUTTONS.again) {
        if (!ticket.settle({ answer: 'rerun' }, ANSWERED_BY.notification)) this.stale(ticket);
      } else if (pick === LADDER_BUTTONS.happened) {
        if (ticket.settled) return this.stale(ticket);
        const note = await vscode.window.showInputBox({ title: message, prompt: LADDER_NOTE_PROMPT, placeHolder: LADDER_NOTE_DEFAULT, ignoreFocusOut: true });
        if (note === undefined) return this.requests.get(ticket)?.(); // escaped: ask the question again
        if (!ticket.settle({ answer: 'done', result: note.trim() || LADDER_NOTE_DEFAULT }, ANSWERED_BY.notification)) this.stale(ticket);
      } else if (pick === LADDER_BUTTONS.details) {
        await showDetails(view, this.d.docs, q.runId).catch((e: Error) => this.d.log.warn(`could not show the details of ${q.callId}: ${e.message}`));
        return this.requests.get(ticket)?.();
      } else if (!ticket.settled) {
        this.d.log.info(`[${q.runId}] the question about ${q.tool} (${q.callId}) was dismissed; it stays pending in the Runs view`);
      }
    });
    return asLadder(await this.wait(ticket, signal));
  }

  /**
   * "Ask Again": the open question in a modal dialog, which cannot be missed (a notification's
   * toast may have hidden); false if the question is not open here.
   */
  showAgain(runId: string, callId: string): boolean {
    const t = this.d.questions.get(runId, callId);
    if (!t || t.settled) return false;
    void this.askInDialog(t).catch((e: Error) => this.d.log.error(`could not ask about ${callId}: ${e.message}`));
    return true;
  }

  private async askInDialog(t: Ticket<PersonAnswer>): Promise<void> {
    const approval = t.info.kind === 'approval';
    const buttons = approval
      ? [APPROVAL_BUTTONS.approve, APPROVAL_BUTTONS.deny, APPROVAL_BUTTONS.details]
      : [LADDER_BUTTONS.happened, LADDER_BUTTONS.again, LADDER_BUTTONS.details];
    const detail = approval
      ? `Run ${t.info.runId} waits for your answer. Approve runs the call; Deny tells the model it was denied.`
      : `Run ${t.info.runId} cannot tell by itself whether the call already happened.`;
    const pick: string | undefined = await vscode.window.showInformationMessage<string>(t.info.message, { modal: true, detail }, ...buttons);
    if (pick === APPROVAL_BUTTONS.details || pick === LADDER_BUTTONS.details) {
      const view = this.details.get(t);
      if (view) await showDetails(view, this.d.docs, t.info.runId);
      return;
    }
    let answer: PersonAnswer | undefined;
    if (pick === APPROVAL_BUTTONS.approve) answer = 'approve';
    else if (pick === APPROVAL_BUTTONS.deny) answer = 'deny';
    else if (pick === LADDER_BUTTONS.again) answer = { answer: 'rerun' };
    else if (pick === LADDER_BUTTONS.happened) answer = { answer: 'done', result: LADDER_NOTE_DEFAULT };
    if (answer !== undefined && !t.settle(answer, ANSWERED_BY.dialog)) this.stale(t);
  }

  /** A click on a question that was decided already: says how, and does nothing. */
  private stale(t: Ticket<PersonAnswer>): void {
    void vscode.window.showInformationMessage(decidedMessage(t.info.title ?? t.info.tool, t.decision));
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
    const onAbort = (): void => void ticket.settle('later', ANSWERED_BY.stopped);
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
