/**
 * How each typed stop (src/core/errors.ts) is shown: severity, text and the buttons that
 * lead on. The texts of the shared contract (open elsewhere, files changed) come from texts.ts.
 */
import {
  BadInputError,
  BudgetExceededError,
  CancelledError,
  CorruptCheckpointError,
  LockCompromisedError,
  LockedError,
  MaxResumesError,
  McpToolsChangedError,
  ModelError,
  RecordingDivergedError,
  ServiceStopError,
  TriageError,
  WorkspaceChangedError,
} from '../../core/errors';
import { CHANGED_BUTTONS, PREFIX, openElsewhereMessage, workspaceChangedMessage } from './texts';
import { noLinks } from './no-links';

export type Severity = 'error' | 'warning' | 'info';

/** The buttons a stop can offer; the extension maps each to its action. */
export const ACTIONS = {
  ...CHANGED_BUTTONS,
  resume: 'Resume',
  openCheckpoint: 'Open Checkpoint',
  deleteRun: 'Delete Run',
  settings: 'Open Settings',
  showLog: 'Show Log',
  setApiKey: 'Set API Key',
} as const;
export type Action = (typeof ACTIONS)[keyof typeof ACTIONS];

export interface ErrorView {
  severity: Severity;
  message: string;
  actions: Action[];
  /** The run the error is about, when it names one. */
  runId?: string;
}

/** "No Anthropic API key: ..." from the model factory: offer to set one. */
function isMissingKey(e: Error): boolean {
  return /\bAPI key\b/.test(e.message) && /^No /.test(e.message);
}

/** Buttons that act on a run: left out when the error names none. */
const RUN_ACTIONS: readonly Action[] = [
  ACTIONS.diff,
  ACTIONS.restore,
  ACTIONS.accept,
  ACTIONS.abandon,
  ACTIONS.resume,
  ACTIONS.openCheckpoint,
  ACTIONS.deleteRun,
];

/** The view of a stop; `runId` is the run it happened in, when the caller knows it. */
export function errorView(e: unknown, runId?: string): ErrorView {
  const v = viewOf(e);
  // An error's message can carry a model server's, a tracker's or a crash report's text.
  v.message = noLinks(editorWords(v.message));
  if (v.runId === undefined && runId !== undefined) v.runId = runId;
  if (v.runId === undefined) v.actions = v.actions.filter((a) => !RUN_ACTIONS.includes(a));
  return v;
}

/** The MCP client's messages name the CLI's --mcp file; in the editor the servers come from the setting (or the allowed .vscode/mcp.json). */
function editorWords(message: string): string {
  return message.replace(/\bthe --mcp file\b/g, "durableTriage.mcp.servers (or the workspace's .vscode/mcp.json)");
}

function viewOf(e: unknown): ErrorView {
  if (e instanceof LockedError) return { severity: 'warning', message: openElsewhereMessage(e.runId), actions: [], runId: e.runId };
  if (e instanceof WorkspaceChangedError) {
    return {
      severity: 'error',
      message: workspaceChangedMessage(e.changes.map((c) => c.path)),
      actions: [ACTIONS.diff, ACTIONS.restore, ACTIONS.accept, ACTIONS.abandon],
      runId: e.runId,
    };
  }
  if (e instanceof CancelledError) {
    return {
      severity: 'info',
      message: `${PREFIX}: run ${e.runId} was cancelled; its state was saved. Resume it from the Runs view.`,
      actions: [ACTIONS.resume],
      runId: e.runId,
    };
  }
  if (e instanceof MaxResumesError)
    return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.settings, ACTIONS.openCheckpoint], runId: e.runId };
  if (e instanceof BudgetExceededError)
    return { severity: 'warning', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.settings, ACTIONS.resume], runId: e.runId };
  if (e instanceof LockCompromisedError) return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.resume], runId: e.runId };
  if (e instanceof CorruptCheckpointError) return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.showLog] };
  if (e instanceof RecordingDivergedError) {
    return {
      severity: 'error',
      message: `${PREFIX}: ${e.message} The recorded demo can only replay its own conversation; use a real model to go on.`,
      actions: [ACTIONS.showLog],
    };
  }
  if (e instanceof ModelError) return { severity: 'error', message: `${PREFIX}: the model failed: ${e.message}`, actions: [ACTIONS.showLog, ACTIONS.resume] };
  if (e instanceof ServiceStopError)
    return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.resume, ACTIONS.settings, ACTIONS.showLog] };
  if (e instanceof McpToolsChangedError) {
    return {
      severity: 'error',
      message:
        `${PREFIX}: run ${e.runId} was started with other tools of MCP server "${e.server}": ${e.changes.join('; ')}. ` +
        'It stopped before anything ran, so the model is never offered tools that behave differently. ' +
        "Put the server back as it was (your durableTriage.mcp.servers setting or the workspace's .vscode/mcp.json) and resume; " +
        'or delete the run (Durable Triage: Delete Run) and start a new one.',
      actions: [ACTIONS.settings, ACTIONS.resume, ACTIONS.showLog],
      runId: e.runId,
    };
  }
  if (e instanceof BadInputError) return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: isMissingKey(e) ? [ACTIONS.setApiKey] : [] };
  if (e instanceof TriageError) return { severity: 'error', message: `${PREFIX}: ${e.message}`, actions: [ACTIONS.showLog] };
  const msg = e instanceof Error ? e.message : String(e);
  return {
    severity: 'error',
    message: `${PREFIX}: the run stopped on an unexpected error: ${msg}. Its last checkpoint is kept; see the log, then resume it.`,
    actions: [ACTIONS.showLog],
  };
}
