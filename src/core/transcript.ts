/**
 * A run's transcript, for a person: what the CLI prints (`triage show --transcript`) and the
 * editor's Run panel lays out. Built from the saved state and the event record
 * (src/transcript/build.ts), so it is the same for a finished run, an interrupted one, and after
 * a reload. The types live in core because the tools describe their calls as these blocks
 * (src/tools/view.ts), the transcript builds them from the tools' views, and the Run panel's
 * script (src/webview/) lays them out.
 */
import type { Usage } from './conversation';

/** A piece of a call's arguments or result, rendered for a person. */
export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string; label?: string }
  | { kind: 'diff'; path: string; text: string }
  | { kind: 'tests'; passed: number; failed: number; failures: { name: string; detail: string }[] }
  | { kind: 'issue'; title: string; body: string; cause?: string }
  /** Web pages the call made or acted on (a pull request, a Sentry issue): http(s) URLs only (views check, the Run panel checks again). */
  | { kind: 'links'; links: { label: string; url: string }[] };

export type CallStatus = 'done' | 'error' | 'denied' | 'waiting' | 'unresolved' | 'not-run';

export type Tone = 'history' | 'info' | 'success' | 'warning' | 'error';

export interface Note {
  tone: Tone;
  text: string;
  at?: string;
}

export interface CallView {
  callId: string;
  tool: string;
  /** "Patch src/todo.js", "File issue: …", "Run the tests" */
  title: string;
  /** The path the call acts on, when it has one (to open the file's diff). */
  path?: string;
  args: Block[];
  status: CallStatus;
  /** `bytes`: how many bytes (UTF-8) the result's text added to the conversation the model is sent. */
  result?: { summary: string; isError: boolean; blocks: Block[]; bytes?: number };
  /** The run's history about this call: ladder decisions, answers and who gave them. */
  notes: Note[];
  /** The Run panel's icon of the call (a codicon name; its tool's view says which): none, a generic one. */
  icon?: string;
  /** Its arguments are shown unfolded in the Run panel (a patch, an issue). */
  unfolded?: true;
  /** The call writes the file at `path` (the Run panel links that file's diff). */
  writesPath?: true;
}

export type Entry =
  | { kind: 'prompt'; text: string }
  /** A later message to the model (e.g. what changed in the workspace). */
  | { kind: 'message'; text: string }
  | { kind: 'turn'; turn: number; text?: string; usage?: Usage; calls: number }
  | { kind: 'call'; turn: number; call: CallView }
  /** A marked line of the run's durable history: a restart and why, a stop, a person's choice between lives. */
  | { kind: 'history'; tone: Tone; title: string; lines: string[]; at?: string }
  | { kind: 'answer'; text: string };

/** Where a file the run wrote stands now (src/workspace/undo.ts compares; the Run panel shows it). */
export type RunFileStatus =
  /** as the run left it */
  | 'as-written'
  /** edited (or replaced) since the run wrote it */
  | 'changed'
  /** deleted since the run wrote it */
  | 'missing'
  /** back as it was before the run (undone) */
  | 'undone';

export interface TranscriptFile {
  path: string;
  /** created by the run, modified by it, or not known (its earlier version was not recorded) */
  change: 'created' | 'modified' | 'unknown';
  callId: string;
  /** For a file in a cause's worktree (keyed by its absolute path): the cause and the path inside the worktree, e.g. "total-type-error: src/report.js". */
  label?: string;
}

/** What a run made for one cause (crash group), from its calls' saved results; links are http(s) only. */
export interface CauseRow {
  cause: string;
  /** The Sentry issue the cause is (a Sentry crash source): its short ID, and its page. */
  sentry?: { label: string; url?: string };
  /** The issue filed for it. */
  issue?: { number: number; url?: string };
  /** Its branch and the commit of its test and fix (commit_fix). */
  branch?: string;
  commit?: string;
  pullRequest?: { number: number; url?: string };
  /** The comment on its Sentry issue (sentry_comment), by Sentry's ID. */
  sentryComment?: string;
  /** What the ladder decided about the cause's calls after a restart, in words, in order. */
  ladder: string[];
}

export interface Transcript {
  runId: string;
  task: string;
  phase: string;
  /** The phase in words: "finished", "waiting for you", … */
  status: string;
  provider: string;
  model: string;
  workspace: string;
  createdAt: string;
  updatedAt: string;
  turns: number;
  restarts: number;
  usage: Usage;
  entries: Entry[];
  files: TranscriptFile[];
  /** Questions waiting for a person. */
  pending: { kind: 'approval' | 'ladder'; callId: string; tool: string; title: string; askedAt: string }[];
  issues: { number: number; title: string; callId: string; url?: string }[];
  /** Per cause: its Sentry issue, issue, branch, commit, pull request and the ladder's decisions (a crash-folder run). */
  causes?: CauseRow[];
  checks?: { passed: number; total: number; failed: { name: string; detail: string }[] };
  answer?: string;
  /** Remarks on the record itself (lines skipped, restarts not recorded). */
  notes: string[];
}
