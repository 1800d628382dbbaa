/**
 * Every text the extension shows a user, in one place: the e2e tests match these exactly
 * (see "The extension's user-facing contract"), so change them only together with those.
 * Each message a notification shows is passed through noLinks: it carries the model's titles
 * and paths, which must not become command links.
 */

import { dollars } from '../../transcript/words';
import { shortRunId } from './run-rows';
import { noLinks } from './no-links';

export const PREFIX = 'Durable Triage';

export const APPROVAL_BUTTONS = { approve: 'Approve', deny: 'Deny', details: 'Show Details' } as const;
export const LADDER_BUTTONS = { happened: 'It Happened', again: 'Run It Again', details: 'Show Details' } as const;
export const RESUME_BUTTONS = { resume: 'Resume', notNow: 'Not Now' } as const;
export const FINISHED_BUTTONS = { show: 'Show Result', fresh: 'Start a New Run' } as const;
/** Short, so a notification shows all four whole. */
export const CHANGED_BUTTONS = {
  diff: 'Show Diff',
  restore: 'Restore',
  accept: 'Keep My Edits',
  abandon: 'Abandon',
} as const;
export const DONE_BUTTONS = { open: 'Open Run', review: 'Review Changes', failures: 'Show Failures' } as const;
export const OPEN_RUN = 'Open Run';

/** Dollars as the progress, status bar and Runs view show them: cents, or tenths of a cent below one cent. */
export const formatDollars = dollars;

/** "Durable Triage: approve <tool>? <title>" */
export function approvalMessage(tool: string, title: string): string {
  return noLinks(`${PREFIX}: approve ${tool}? ${title}`);
}

/** A run paused in a shared store, for a worker to continue: "Durable Triage: run <runId> (<task>) waits for your approval of <tool>: <title>" */
export function storeApprovalMessage(runId: string, task: string, tool: string, title: string): string {
  return noLinks(`${PREFIX}: run ${runId} (${task}) waits for your approval of ${tool}: ${title}`);
}

/** The ladder's question to a person: "Durable Triage: Did <tool> <title> already happen?" */
export function ladderMessage(tool: string, title: string): string {
  return noLinks(`${PREFIX}: Did ${tool}${title ? ` ${title}` : ''} already happen?`);
}

export const LADDER_NOTE_PROMPT = "What did you find? Your note becomes the call's result, which the model reads.";
export const LADDER_NOTE_DEFAULT = 'A person confirmed the call had already happened.';

/** "Durable Triage: run <runId> (<task>) was interrupted at turn <N>. Resume it?" */
export function resumeOfferMessage(runId: string, task: string, turn: number): string {
  return noLinks(`${PREFIX}: run ${runId} (${task}) was interrupted at turn ${turn}. Resume it?`);
}

/**
 * Start on a task whose latest run here is done: "Durable Triage: <task> already has a finished
 * run here (<runId>, <date>). Show its result, or start a new run?"
 */
export function finishedRunMessage(task: string, runId: string, updatedAt: string): string {
  return noLinks(
    `${PREFIX}: ${task} already has a finished run here (${runId}, ${updatedAt.slice(0, 16).replace('T', ' ')} UTC). Show its result, or start a new run?`,
  );
}

/** "Durable Triage: run <runId> is open in another window; it will not be run here." */
export function openElsewhereMessage(runId: string): string {
  return noLinks(`${PREFIX}: run ${runId} is open in another window; it will not be run here.`);
}

/**
 * "Durable Triage: files the agent wrote have changed: <paths>. <what the buttons do>" (`live`:
 * the run's model is live, so it can go on from the edited files; the recorded demo cannot).
 */
export function workspaceChangedMessage(paths: readonly string[], live = true): string {
  const how = live
    ? "Restore puts the agent's version back; Keep My Edits goes on with yours (the model is told what changed)."
    : "Restore puts the agent's version back (the recorded demo cannot go on from edited files; run the task with a live model to keep your edits).";
  return noLinks(`${PREFIX}: files the agent wrote have changed: ${paths.join(', ')}. ${how}`);
}

/**
 * "Durable Triage: <task> finished: <passed>/<total> checks passed; issues #1, #2 (run <short ID>)."
 * What matters first, so a narrow notification still shows it. Checks exist only for catalog
 * tasks; without them the clause is left out.
 */
export function doneMessage(task: string, runId: string, checks: readonly { passed: boolean }[] | undefined, issues: readonly { number: number }[]): string {
  const parts: string[] = [];
  if (checks) parts.push(`${checks.filter((c) => c.passed).length}/${checks.length} checks passed`);
  parts.push(issues.length > 0 ? `issues ${issues.map((i) => `#${i.number}`).join(', ')}` : 'no issues filed');
  return noLinks(`${PREFIX}: ${task} finished: ${parts.join('; ')} (run ${shortRunId(runId, task)}).`);
}

/** A notification clicked after its question was decided elsewhere (or closed when the run stopped): what happened first, so a one-line toast shows it. */
export function decidedMessage(title: string, decision: { answer: unknown; by?: string } | undefined): string {
  const a = decision?.answer;
  const what = typeof a === 'string' ? a : typeof a === 'object' && a !== null ? (a as { answer?: string }).answer : undefined;
  if (what === undefined || what === 'later') return noLinks(`${PREFIX}: closed when its run stopped; asked again when the run resumes: ${title}.`);
  const verb = what === 'approve' ? 'approved' : what === 'deny' ? 'denied' : what === 'rerun' ? 'answered (run it again)' : 'answered (it happened)';
  return noLinks(`${PREFIX}: already ${verb}${decision?.by ? ` by ${decision.by}` : ''}; this notification no longer acts: ${title}.`);
}

/** An old "Resume it?" clicked for a run that has finished since. */
export function alreadyFinishedMessage(runId: string, task: string): string {
  return noLinks(`${PREFIX}: run ${shortRunId(runId, task)} has finished already; there is nothing to resume. Its transcript is in the Run panel.`);
}

/** The status bar while a run waits for a person. */
export const STATUS_APPROVAL = '$(bell-dot) Triage: approval needed';

/** A run that stopped to wait for a person (nobody answered while it ran). */
export function pausedMessage(runId: string, waiting: readonly { kind: string; tool: string }[]): string {
  const what = waiting.map((w) => (w.kind === 'approval' ? `approval of ${w.tool}` : `your answer about ${w.tool}`)).join(', ');
  return noLinks(`${PREFIX}: run ${runId} is paused, waiting for ${what || 'a person'}. Answer it in the Runs view, or resume the run to be asked again.`);
}

/** The progress notification's title: "Durable Triage: <task>". */
export function progressTitle(task: string): string {
  return noLinks(`${PREFIX}: ${task}`);
}

/** "turn N · $D", after what the run does now when given ("waiting for the model · turn N · $D") */
export function progressText(turn: number, spent: number, doing?: string): string {
  return noLinks(`${doing ? `${doing} · ` : ''}turn ${turn} · ${formatDollars(spent)}`);
}

/** A link to the run's Run panel, for a notification's message (the progress notification has no buttons). */
export function openRunLink(runId: string): string {
  return `[Open Run](command:durableTriage.openRun?${encodeURIComponent(JSON.stringify([runId]))})`;
}

/** "$(pulse) Triage: turn N · $D" */
export function statusBarText(turn: number, spent: number): string {
  return `$(pulse) Triage: ${progressText(turn, spent)}`;
}

export const HERE_BUTTONS = { open: 'Open Run', question: 'Show Question' } as const;

/**
 * Start or Resume on a run this window has open already. Running: "… is already running in this
 * window" (Open Run). Waiting for a person: it is not running, it waits for that answer (Open Run,
 * Show Question).
 */
export function alreadyHereMessage(what: string, waitingFor?: string): { message: string; buttons: string[] } {
  if (waitingFor === undefined) return { message: noLinks(`${PREFIX}: ${what} is already running in this window.`), buttons: [HERE_BUTTONS.open] };
  return {
    message: noLinks(`${PREFIX}: ${what} is open in this window and waits for your answer: ${waitingFor}.`),
    buttons: [HERE_BUTTONS.open, HERE_BUTTONS.question],
  };
}

/** A run that was deleted while a panel or an old notification still pointed at it. */
export function deletedRunMessage(runId: string): string {
  return noLinks(
    `${PREFIX}: run ${runId} no longer exists: it was deleted (Delete Run or Abandon, in this window or another). There is nothing left to open or resume.`,
  );
}

/** The Run panel's text for a run that was deleted while it was open. */
export function deletedRunPanelText(runId: string): string {
  return `Run ${runId} was deleted (Delete Run or Abandon, in this window or another), so there is nothing left to show or resume. Close this panel.`;
}
