/**
 * How a tool's call and its result look to a person, as transcript blocks (core/transcript.ts).
 * The one rendering of a call: the CLI's transcript (`triage show --transcript`), the Run panel,
 * Show Details of a stored question and the titles of questions all come from it. Each tool
 * declares its view next to itself; views.ts gathers them by name (no tracker, no workspace).
 *
 * A view reads the model's arguments parsed loosely: a saved call may hold any JSON object (a
 * field missing, or of another type), so every field is checked as it is read.
 */
import type { ToolResult } from '../core/conversation';
import type { CallView, CauseRow } from '../core/transcript';

/** The model's arguments: a JSON object, nothing checked. */
export type LooseArgs = Record<string, unknown>;

/** A call's title, the path it acts on (when it has one) and its arguments as blocks. */
export type CallLook = Pick<CallView, 'title' | 'path' | 'args'>;

/** A result's one-line summary and the blocks shown under it. */
export type ResultLook = NonNullable<CallView['result']>;

/** What the Run panel needs to lay a call out beyond its blocks. */
export type CallLayout = Pick<CallView, 'icon' | 'unfolded' | 'writesPath'>;

export interface ToolView {
  /** The Run panel's icon of the call (a codicon name). */
  icon: string;
  /** Its arguments are shown unfolded in the Run panel (a change a person should see: a patch, an issue). */
  unfolded?: true;
  /** It writes the file at its `path` (the Run panel links that file's diff against before the run). */
  writesPath?: true;
  call(a: LooseArgs): CallLook;
  /** Its result; default: plainResult(r). */
  result?(r: ToolResult): ResultLook;
  /** The issue a successful result says was filed, for the transcript's list of issues. */
  filed?(r: ToolResult): { number: number; title: string; url?: string } | undefined;
  /** What a successful result made for the cause its call names (a branch's commit, a pull request, a Sentry comment). */
  made?(r: ToolResult): CauseMade | undefined;
}

/** What one call made for a cause: the part of the transcript's row of the cause it fills in. */
export type CauseMade = Partial<Pick<CauseRow, 'branch' | 'commit' | 'pullRequest' | 'sentryComment'>>;

/** Longest text a block holds (the CLI shortens further; the Run panel shows blocks whole). */
const CLIP = 20_000;

export function clip(s: string, n = CLIP): string {
  return s.length > n ? `${s.slice(0, n)}\n… (${s.length - n} more characters)` : s;
}

/** The field when it is a string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `look` with the call's `path` argument, when it has one. */
export function withPath(a: LooseArgs, look: Omit<CallLook, 'path'>): CallLook {
  const p = str(a.path);
  return p ? { ...look, path: p } : look;
}

/**
 * A result as its first line, with the whole output as a code block when there is more than
 * that line, or always (`output: 'always'`) for a tool whose output is what it is for (a file's text).
 */
export function plainResult(r: ToolResult, output: 'always' | 'more' = 'more'): ResultLook {
  const first = (r.content.split('\n')[0] ?? '').trim();
  const rest = r.content.slice(first.length).trim();
  const shown = (rest !== '' || output === 'always') && r.content.trim() !== '';
  return { summary: first || '(no output)', isError: r.isError === true, blocks: shown ? [{ kind: 'code', text: clip(r.content) }] : [] };
}

/** The URL when it is an http(s) URL (a web page to link), else undefined: nothing else is ever made a link. */
export function webLink(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
