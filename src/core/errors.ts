/**
 * Every stop a user can meet is one of these typed errors. Each message says what
 * happened and what to do next; `code` is stable (used by the CLI's exit codes, the
 * extension's notifications and the README's table).
 */
export abstract class TriageError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Another live process (or editor window) holds the run's lock. */
export class LockedError extends TriageError {
  readonly code = 'locked';
  /** `note`: what else a person should know, e.g. why the owner is unknown. */
  constructor(
    readonly runId: string,
    readonly lockPath: string,
    readonly owner?: string,
    readonly note?: string,
  ) {
    super(
      `Run ${runId} is open in another process${owner ? ` (${owner})` : ''}. ` +
        `Close it there, or wait for it to finish; the lock is ${lockPath}.${note ? ` ${note}` : ''}`,
    );
  }
}

/** Our lock was lost while the run was going (e.g. its refresh failed after a long sleep). */
export class LockCompromisedError extends TriageError {
  readonly code = 'lock-compromised';
  constructor(
    readonly runId: string,
    reason: string,
  ) {
    super(`The lock on run ${runId} was lost (${reason}); the run stopped before any further side effect. ` + `Resume it once no other process has it open.`);
  }
}

/** The run has been restarted more times than its restart limit allows. */
export class MaxResumesError extends TriageError {
  readonly code = 'max-resumes';
  constructor(
    readonly runId: string,
    readonly restarts: number,
    readonly limit: number,
  ) {
    super(
      `Run ${runId} has been restarted ${restarts} times, over its limit of ${limit}; it will not be resumed again. ` +
        `Inspect it with "triage status", or raise the restart limit.`,
    );
  }
}

export interface FileChange {
  /** Workspace-relative path, with forward slashes. */
  path: string;
  /** SHA-256 (hex) the run recorded when it wrote the file. */
  expected: string;
  /** SHA-256 (hex) of the file now, or null when the file is missing. */
  actual: string | null;
}

/** A file the run wrote no longer matches the SHA-256 it recorded. */
export class WorkspaceChangedError extends TriageError {
  readonly code = 'workspace-changed';
  constructor(
    readonly runId: string,
    readonly changes: FileChange[],
  ) {
    super(
      `Files written by run ${runId} changed since it wrote them: ` +
        changes.map((c) => `${c.path} (expected ${c.expected.slice(0, 12)}, ${c.actual ? `found ${c.actual.slice(0, 12)}` : 'missing'})`).join('; ') +
        `. Restore the agent's version, or accept the current files so the model is told what changed.`,
    );
  }
}

/** "Undo the run's changes" was refused: undoing would lose edits made after the run, or the run did not record some file's earlier version. */
export class UndoRefusedError extends TriageError {
  readonly code = 'undo-refused';
  constructor(
    readonly runId: string,
    readonly changes: FileChange[],
    readonly unknown: string[],
  ) {
    const parts: string[] = [];
    if (changes.length > 0)
      parts.push(
        `${changes.map((c) => c.path).join(', ')} changed since the agent wrote ${changes.length === 1 ? 'it' : 'them'} (undoing would lose those edits; look at the diff and undo by hand what you want gone)`,
      );
    if (unknown.length > 0) parts.push(`the run did not record how ${unknown.join(', ')} looked before it wrote ${unknown.length === 1 ? 'it' : 'them'}`);
    super(`Run ${runId}'s changes were not undone: ${parts.join('; ')}. Nothing was changed.`);
  }
}

/**
 * Restoring or undoing would write or delete a recorded file through a symlink that leads out of
 * the workspace (or is broken): the file itself, or a folder above it, was replaced by a link.
 * Nothing was written or deleted.
 */
export class WorkspaceLinkError extends TriageError {
  readonly code = 'workspace-link';
  constructor(
    readonly path: string,
    readonly link: string,
    readonly target: string | undefined,
    action: string,
  ) {
    super(
      `${action} was refused: ${path} is reached through ${link === path ? 'a symlink' : `the symlink ${link}`} ` +
        (target === undefined ? 'that is broken' : `that leads out of the workspace (to ${target})`) +
        `, so writing or deleting it would change a file outside the workspace. Nothing was written or deleted. ` +
        `Put the file or folder back in place of the link (or remove the link), then try again.`,
    );
  }
}

/** A checkpoint file that cannot be read back: truncated, not JSON, wrong version, bad field. */
export class CorruptCheckpointError extends TriageError {
  readonly code = 'corrupt-checkpoint';
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`Checkpoint ${file} is corrupt: ${detail}. It was left as it is; move it aside to start over.`);
  }
}

/** A budget (turns, tokens, dollars) would be exceeded by the next model call. */
export class BudgetExceededError extends TriageError {
  readonly code = 'budget-exceeded';
  constructor(
    readonly runId: string,
    readonly budget: 'turns' | 'tokens' | 'dollars',
    readonly used: number,
    readonly limit: number,
  ) {
    super(
      `Run ${runId} stopped before its next model call: its ${budget} budget is used up or would be by that call (${formatBudget(budget, used)} used of ${formatBudget(budget, limit)}). Raise the budget and resume it.`,
    );
  }
}

function formatBudget(b: string, n: number): string {
  return b === 'dollars' ? `$${n.toFixed(4)}` : String(n);
}

/** The run was cancelled (by the user or a shutdown); its state was saved and it can be resumed. */
export class CancelledError extends TriageError {
  readonly code = 'cancelled';
  /** Why, when it was not a person's Cancel: 'window-closed' (the editor window was reloaded or closed, so the run saved and stopped). */
  constructor(
    readonly runId: string,
    readonly why?: 'window-closed',
  ) {
    super(`Run ${runId} was cancelled; its state was saved and it can be resumed.`);
  }
}

/** Bad input from a person: an unknown task, a bad flag, a missing folder. */
export class BadInputError extends TriageError {
  readonly code = 'bad-input';
}

/** The recorded model was asked to continue a conversation that is not the recording's. */
export class RecordingDivergedError extends TriageError {
  readonly code = 'recording-diverged';
}

/** A model provider failed in a way retries did not fix. */
export class ModelError extends TriageError {
  readonly code = 'model-error';
}

/** The model's replies kept being cut at its output token limit: continuing them got nowhere. */
export class ReplyCutError extends TriageError {
  readonly code = 'reply-cut';
  constructor(
    readonly runId: string,
    readonly inARow: number,
    readonly stopReason: string,
  ) {
    super(
      `Run ${runId}: the model's last ${inARow} replies were all cut at its output token limit (stop reason ${stopReason}), so the run stopped instead of continuing them again. ` +
        'Each reply is saved (none is paid twice); use a model with a larger output limit, or resume to let it try again.',
    );
  }
}

/**
 * A service a tool needs cannot be used now (not signed in, no permission, rate limited, down).
 * Unlike a tool's ordinary failure it is not handed to the model as the call's result: the run
 * stops before that result is saved, the call's attempt marker stays, and a resume puts the
 * call to the ladder (the tool's lookup asks the service whether it happened). Each service
 * names its own kinds (e.g. src/tracker/github/errors.ts).
 */
export abstract class ServiceStopError extends TriageError {
  /** The service, for messages: "GitHub (github:owner/repo)". */
  abstract readonly service: string;
}

/** A run ID that already exists was about to be created again. */
export class RunExistsError extends TriageError {
  readonly code = 'run-exists';
  constructor(readonly runId: string) {
    super(`Run ${runId} already exists; run IDs are never reused.`);
  }
}

/** The run store's database cannot be reached or used (not running, wrong address, refused login, a schema this version does not know). */
export class StoreUnavailableError extends TriageError {
  readonly code = 'store-unavailable';
  constructor(
    readonly where: string,
    detail: string,
  ) {
    super(
      `The run store ${where} cannot be used: ${detail}. Check that the database server is running and the --store URL (or the durableTriage.store setting, and its password) is right.`,
    );
  }
}

/** `triage tool` was asked to run a tool that changes something, without --allow-writes. */
export class WritesNotAllowedError extends TriageError {
  readonly code = 'writes-not-allowed';
}

/**
 * An MCP server the run uses (`--mcp`) cannot be used: it will not start (`start`), it went away
 * (`gone`), or a call to it did not answer in time (`timeout`). A call it stops is not handed to
 * the model: its attempt marker stays, and a resume puts it to the ladder.
 */
export class McpServerError extends ServiceStopError {
  readonly code = 'mcp-server';
  readonly service: string;
  constructor(
    readonly server: string,
    readonly kind: 'start' | 'gone' | 'timeout',
    detail: string,
  ) {
    super(`MCP server "${server}" ${detail}`);
    this.service = `MCP server "${server}"`;
  }
}

/** On resume, an MCP server's tools are not the ones the run saved at its start (a tool gone, or its schema changed). */
export class McpToolsChangedError extends TriageError {
  readonly code = 'mcp-tools-changed';
  constructor(
    readonly runId: string,
    readonly server: string,
    readonly changes: string[],
  ) {
    super(
      `Run ${runId} was started with other tools of MCP server "${server}": ${changes.join('; ')}. ` +
        'The run stopped before anything ran, so the model is never offered tools that behave differently. Put the server back as it was and resume, or start a new run (--new).',
    );
  }
}
