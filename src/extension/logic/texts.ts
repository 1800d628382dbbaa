/**
 * Every text the extension shows a user, in one place: the e2e tests match these exactly
 * (see "The extension's user-facing contract"), so change them only together with those.
 */

export const PREFIX = 'Durable Triage';

export const APPROVAL_BUTTONS = { approve: 'Approve', deny: 'Deny', details: 'Show Details' } as const;
export const LADDER_BUTTONS = { happened: 'It Happened', again: 'Run It Again', details: 'Show Details' } as const;
export const RESUME_BUTTONS = { resume: 'Resume', notNow: 'Not Now' } as const;
export const FINISHED_BUTTONS = { show: 'Show Result', fresh: 'Start a New Run' } as const;
export const CHANGED_BUTTONS = {
  diff: 'Show Diff',
  restore: "Restore Agent's Version",
  accept: 'Accept Current Files',
  abandon: 'Abandon Run',
} as const;

/** Dollars as the progress, status bar and Runs view show them: cents, or tenths of a cent below one cent. */
export function formatDollars(d: number): string {
  if (!Number.isFinite(d) || d <= 0) return '$0.00';
  return d < 0.01 ? `$${d.toFixed(4)}` : `$${d.toFixed(2)}`;
}

/** "Durable Triage: approve <tool>? <title>" */
export function approvalMessage(tool: string, title: string): string {
  return `${PREFIX}: approve ${tool}? ${title}`;
}

/** The ladder's question to a person: "Durable Triage: Did <tool> <title> already happen?" */
export function ladderMessage(tool: string, title: string): string {
  return `${PREFIX}: Did ${tool}${title ? ` ${title}` : ''} already happen?`;
}

export const LADDER_NOTE_PROMPT = "What did you find? Your note becomes the call's result, which the model reads.";
export const LADDER_NOTE_DEFAULT = 'A person confirmed the call had already happened.';

/** "Durable Triage: run <runId> (<task>) was interrupted at turn <N>. Resume it?" */
export function resumeOfferMessage(runId: string, task: string, turn: number): string {
  return `${PREFIX}: run ${runId} (${task}) was interrupted at turn ${turn}. Resume it?`;
}

/**
 * Start on a task whose latest run here is done: "Durable Triage: <task> already has a finished
 * run here (<runId>, <date>). Show its result, or start a new run?"
 */
export function finishedRunMessage(task: string, runId: string, updatedAt: string): string {
  return `${PREFIX}: ${task} already has a finished run here (${runId}, ${updatedAt.slice(0, 16).replace('T', ' ')} UTC). Show its result, or start a new run?`;
}

/** "Durable Triage: run <runId> is open in another window; it will not be run here." */
export function openElsewhereMessage(runId: string): string {
  return `${PREFIX}: run ${runId} is open in another window; it will not be run here.`;
}

/** "Durable Triage: files the agent wrote have changed: <paths>." */
export function workspaceChangedMessage(paths: readonly string[]): string {
  return `${PREFIX}: files the agent wrote have changed: ${paths.join(', ')}.`;
}

/**
 * "Durable Triage: run <runId> finished: <passed>/<total> checks passed; issues #1, #2."
 * Checks exist only for catalog tasks; without them the clause is left out.
 */
export function doneMessage(runId: string, checks: readonly { passed: boolean }[] | undefined, issues: readonly { number: number }[]): string {
  const parts: string[] = [];
  if (checks) parts.push(`${checks.filter((c) => c.passed).length}/${checks.length} checks passed`);
  parts.push(issues.length > 0 ? `issues ${issues.map((i) => `#${i.number}`).join(', ')}` : 'no issues filed');
  return `${PREFIX}: run ${runId} finished: ${parts.join('; ')}.`;
}

/** A run that stopped to wait for a person (nobody answered while it ran). */
export function pausedMessage(runId: string, waiting: readonly { kind: string; tool: string }[]): string {
  const what = waiting.map((w) => (w.kind === 'approval' ? `approval of ${w.tool}` : `your answer about ${w.tool}`)).join(', ');
  return `${PREFIX}: run ${runId} is paused, waiting for ${what || 'a person'}. Answer it in the Runs view, or resume the run to be asked again.`;
}

/** The progress notification's title: "Durable Triage: <task>". */
export function progressTitle(task: string): string {
  return `${PREFIX}: ${task}`;
}

/** "turn N · $D" */
export function progressText(turn: number, dollars: number): string {
  return `turn ${turn} · ${formatDollars(dollars)}`;
}

/** "$(pulse) Triage: turn N · $D" */
export function statusBarText(turn: number, dollars: number): string {
  return `$(pulse) Triage: ${progressText(turn, dollars)}`;
}
