/**
 * The Tool contract: what a tool declares about itself so the loop and the resolution
 * ladder know what a repeat would do, and its arguments, declared once with zod: the model is
 * sent that schema's JSON Schema, and the loop parses the model's raw JSON with it before the
 * tool runs (tool-args.ts), so a tool only ever sees arguments of its declared shape.
 */
import type { z } from 'zod';
import type { ToolResult } from '../core/conversation';
import type { JsonSchema, ToolVendor } from '../core/tool-schema';
import type { WriteRoot } from '../store/state';

/** What a tool hands back; the loop turns it into a ToolResult with the call's ID. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

export interface ToolContext {
  runId: string;
  callId: string;
  /** Absolute workspace root; tools resolve paths inside it. */
  workspace: string;
  /**
   * The idempotency key, present only for a keyed tool when keys are on. A tool sends
   * it in its own channel (an HTTP header, MCP `_meta`), never inside the model's arguments.
   */
  key?: string;
  signal: AbortSignal;
  /** The tests' environment where the call acts (a cause's worktree: src/deps/prepare.ts); undefined: the process's own. */
  testEnv?: Readonly<Record<string, string>>;
  /**
   * Records a file the call wrote: its SHA-256 into the ledger, its bytes into the content store.
   * `root`: written in a cause's worktree (relPath is then relative to its workspace folder).
   */
  recordWrite(relPath: string, content: Buffer, root?: WriteRoot): Promise<void>;
  /** Says what a long call is doing now (one line, shown live to the person watching, never to the model). */
  progress?(text: string): void;
}

/**
 * The lookup's answer, for the ladder's second step. `not-done` only when certain;
 * when unsure the lookup throws, and the question goes up to a person.
 */
export type LookupAnswer = { status: 'done'; output: ToolOutput } | { status: 'not-done' };

/** What describe() gives a person deciding on an approval. */
export interface CallDescription {
  title: string;
  detail: string;
  diff?: { path: string; before: string; after: string };
}

export interface Tool<A = unknown> {
  name: string;
  description: string;
  /** The arguments, declared once (a zod object schema). */
  args: z.ZodType<A>;
  /**
   * The arguments' JSON Schema as the model is sent it, for a tool that comes with one of its own
   * (an MCP server's tool, src/mcp/): sent as it is, while `args` (made from it) checks the arguments.
   */
  inputSchema?: JsonSchema;
  /** Only reads: a repeat is harmless. */
  readOnly?: boolean;
  /** Changes something, but a repeat has the same effect as one call. */
  idempotent?: boolean;
  /**
   * Sends an idempotency key. `retention` says how long the service keeps keys (an expired key
   * counts as no key), asking the service when it has not said yet: the loop saves the answer
   * with the attempt marker, and the ladder asks again for a marker saved without one.
   */
  keyed?: { retention(signal: AbortSignal): Promise<number> };
  /** Runs only after a person says yes. */
  needsApproval?: boolean;
  /**
   * Offered only to this vendor's models (its own edit tool's shape: Anthropic's text editor,
   * OpenAI's apply_patch); undefined: offered to every model. See ToolSpec.vendor.
   */
  vendor?: ToolVendor;
  /**
   * Asked (reads only) before a person is asked to approve a call: an outcome the service
   * already knows (e.g. an issue is already filed for this cause) is the call's result, and
   * nobody is asked to approve what would not happen. Undefined, or a failed check: ask.
   */
  settledBeforeApproval?(args: A, ctx: ToolContext): Promise<ToolOutput | undefined>;
  run(args: A, ctx: ToolContext): Promise<ToolOutput>;
  /** Did this call already happen? (the ladder's second step) */
  lookup?(args: A, ctx: ToolContext): Promise<LookupAnswer>;
  /**
   * The workspace-relative paths a call with these arguments will write, so the loop can keep
   * each file as it was before the run first wrote it (for "undo the run's changes"). Optional;
   * a path it cannot resolve is left out.
   */
  writes?(args: A, workspace: string): string[];
  /**
   * Where a call with these arguments writes when that is not the workspace (a cause's worktree,
   * src/tools/in-cause-worktree.ts), made first if it is not there yet (so the files' earlier versions are
   * read from it): `writes` is then asked with that folder, and the paths are kept as that root's.
   * `progress` is told what making it ready is doing (its dependencies' install).
   */
  writesIn?(args: A, signal: AbortSignal, progress?: (text: string) => void): Promise<WriteRoot | undefined>;
  /**
   * The approval's preview for a person deciding on it: the call's title (as its tool's view
   * renders it, src/tools/view.ts), its arguments as plain text for a terminal, and a
   * before/after diff of the file it would change when the tool was built with its workspace.
   */
  describe?(args: A): CallDescription;
}

export type ToolSet = ReadonlyMap<string, Tool>;

/** A `keyed` declaration for a service whose key retention is known up front. */
export function keyedFor(retentionMs: number): NonNullable<Tool['keyed']> {
  return { retention: async () => retentionMs };
}

export function toolSet(tools: Tool[]): ToolSet {
  const m = new Map<string, Tool>();
  for (const t of tools) {
    if (m.has(t.name)) throw new Error(`two tools are named ${t.name}`);
    m.set(t.name, t);
  }
  return m;
}

/** True when the call can change something, so it gets an attempt marker. */
export function changesSomething(t: Tool): boolean {
  return !t.readOnly;
}

export type { ToolResult };
