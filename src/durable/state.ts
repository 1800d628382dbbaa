/**
 * The run state: everything a later process needs to carry a run on.
 *
 * Serialization rules (see encodeState / decodeState):
 * - unset optional fields are omitted, and load back as unset (never as "" or [] or {});
 * - raw JSON written by the model (tool-call arguments) is kept as a string, so invalid
 *   arguments never stop a save;
 * - a version field; decoding validates every field and names the file on failure.
 */
import { CorruptCheckpointError } from './errors';

export const STATE_VERSION = 1;

export type Phase = 'model' | 'tools' | 'paused' | 'done';
export const PHASES: readonly Phase[] = ['model', 'tools', 'paused', 'done'];

/** One tool call from a model reply. `args` is the model's raw JSON text, valid or not. */
export interface ToolCall {
  id: string;
  name: string;
  args: string;
}

export interface ToolResult {
  callId: string;
  content: string;
  isError?: boolean;
}

export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; text?: string; calls?: ToolCall[] }
  | { role: 'tool'; results: ToolResult[] };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  dollars: number;
}

/** A model reply as it arrived: saved (save point 2) before any of its calls run. */
export interface ModelReply {
  text?: string;
  calls: ToolCall[];
  usage: Usage;
  model: string;
  /** Provider's own ID for the reply, where it gives one. */
  replyId?: string;
  /** The provider's own stop reason, where it gives one (end_turn, tool_use, max_tokens, stop, length, tool_calls, content_filter...). */
  stopReason?: string;
  /** Set when the reply was cut by a token limit (Anthropic max_tokens or model_context_window_exceeded, OpenAI length): it is not a whole answer. */
  truncated?: true;
}

/** Marker saved (save point 3) just before a call that can change something. */
export interface AttemptMarker {
  callId: string;
  tool: string;
  /** ISO time the attempt started: with the tool's key retention, tells whether the key is still kept. */
  startedAt: string;
  /** The idempotency key sent with the call, when the tool is keyed. */
  key?: string;
  /**
   * How long the tool's service keeps keys, as it said before the call (ms). Saved with the
   * marker so a later process, which has learnt nothing yet, never assumes a default.
   */
  retentionMs?: number;
  /**
   * The files the call will write that the run had not written yet, as they were just before
   * it: the SHA-256 of their bytes (kept in the content store) or "absent". Saved with the
   * marker, before the call acts, so the files' first versions survive a crash in the call.
   */
  before?: Record<string, string>;
}

/** A call waiting on a person: an approval, or the ladder's last question. */
export interface PendingQuestion {
  kind: 'approval' | 'ladder';
  callId: string;
  tool: string;
  /** Raw arguments, as the model wrote them. */
  args: string;
  askedAt: string;
}

/** The SHA-256 of a file the run wrote; its bytes are in the content store under this hash. */
export interface FileRecord {
  sha256: string;
  size: number;
  callId: string;
  writtenAt: string;
  /**
   * The file as it was before the run first wrote it: the SHA-256 of those bytes (in the
   * content store), or "absent" when the run created it. Unset for a write the run could not
   * see coming (a tool that does not declare the paths it writes), or one recorded by an older version.
   */
  before?: string;
}

/** FileRecord.before of a file the run created. */
export const ABSENT = 'absent';

/** The context policy's summary of older turns, so a resumed run sends the same context. */
export interface ContextSummary {
  text: string;
  /** How many leading messages of `messages` the summary replaces. */
  covers: number;
}

/** What the run was started with, so any later process can resume it the same way. */
export interface RunConfig {
  /** Absolute path of the workspace the run works in. */
  workspace: string;
  /** Model provider and model name, e.g. "recorded" / "claude-sonnet-4-5". */
  provider: string;
  model: string;
  /** Whether keyed tools send idempotency keys (the sweep runs with both). */
  keys: boolean;
  /** Free-form options of the task/front end (tracker URL, crash folder...). */
  options?: Record<string, string>;
}

export interface RunState {
  version: typeof STATE_VERSION;
  runId: string;
  task: string;
  createdAt: string;
  updatedAt: string;
  config: RunConfig;
  phase: Phase;
  /** The system prompt sent with every model call. */
  system: string;
  messages: Message[];
  usage: Usage;
  /** Model replies received and saved, over the whole life of the run. */
  turns: number;
  restarts: number;
  summary?: ContextSummary;
  pending?: PendingQuestion[];
  lastReply?: ModelReply;
  /** Results of lastReply's calls, by call ID (cleared when the next reply arrives). */
  results?: Record<string, ToolResult>;
  /** Attempt markers of lastReply's calls, by call ID. */
  attempts?: Record<string, AttemptMarker>;
  /** Files the run wrote, by workspace-relative path. */
  files?: Record<string, FileRecord>;
  /** Notes for the model, sent as a user message before the next model call (e.g. what changed). */
  inbox?: string[];
  /** How many replies in a row the model's output token limit cut (unset when the last one was whole). */
  cutReplies?: number;
  answer?: string;
}

/** What a finished (or stopped) run hands back to its front end. */
export interface RunResult {
  runId: string;
  task: string;
  phase: Phase;
  answer?: string;
  messages: Message[];
  usage: Usage;
  turns: number;
  restarts: number;
  pending?: PendingQuestion[];
  files?: Record<string, FileRecord>;
  createdAt: string;
  updatedAt: string;
}

export function resultOf(s: RunState): RunResult {
  const r: RunResult = {
    runId: s.runId,
    task: s.task,
    phase: s.phase,
    messages: s.messages,
    usage: s.usage,
    turns: s.turns,
    restarts: s.restarts,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.answer !== undefined) r.answer = s.answer;
  if (s.pending !== undefined) r.pending = s.pending;
  if (s.files !== undefined) r.files = s.files;
  return r;
}

export function zeroUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, dollars: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const u: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    dollars: a.dollars + b.dollars,
  };
  const cr = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cw = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined) u.cacheReadTokens = cr;
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined) u.cacheWriteTokens = cw;
  return u;
}

export function newState(init: { runId: string; task: string; config: RunConfig; system: string; prompt: string; now?: Date }): RunState {
  const t = (init.now ?? new Date()).toISOString();
  return {
    version: STATE_VERSION,
    runId: init.runId,
    task: init.task,
    createdAt: t,
    updatedAt: t,
    config: init.config,
    phase: 'model',
    system: init.system,
    messages: [{ role: 'user', content: init.prompt }],
    usage: zeroUsage(),
    turns: 0,
    restarts: 0,
  };
}

// ---------------------------------------------------------------------------
// Encoding

/** JSON text of the state: unset fields omitted (JSON.stringify drops undefined). */
export function encodeState(s: RunState): string {
  return JSON.stringify(s);
}

/** JSON.parse for a checkpoint file's text; an empty or cut file is a CorruptCheckpointError naming it. */
export function parseCheckpointJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const detail = text.length === 0 ? 'the file is empty' : `not valid JSON (${(e as Error).message}); it may be truncated`;
    throw new CorruptCheckpointError(file, detail);
  }
}

/** Parses and validates checkpoint text; any problem is a CorruptCheckpointError naming `file`. */
export function decodeState(text: string, file: string): RunState {
  const raw = parseCheckpointJson(text, file);
  try {
    return validateState(raw);
  } catch (e) {
    if (e instanceof FieldError) throw new CorruptCheckpointError(file, e.message);
    throw e;
  }
}

class FieldError extends Error {}

type Obj = Record<string, unknown>;

function fail(path: string, want: string, got: unknown): never {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'array' : typeof got;
  throw new FieldError(`field "${path}" should be ${want}, found ${kind}`);
}
function obj(v: unknown, p: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(p, 'an object', v);
  return v as Obj;
}
function str(v: unknown, p: string): string {
  if (typeof v !== 'string') fail(p, 'a string', v);
  return v;
}
function num(v: unknown, p: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(p, 'a number', v);
  return v;
}
function bool(v: unknown, p: string): boolean {
  if (typeof v !== 'boolean') fail(p, 'true or false', v);
  return v;
}
/** A flag saved only when set: `true`, never `false`. */
function yes(v: unknown, p: string): true {
  if (v !== true) fail(p, 'true (or absent)', v);
  return v;
}
function arr(v: unknown, p: string): unknown[] {
  if (!Array.isArray(v)) fail(p, 'an array', v);
  return v;
}
function optional<T>(o: Obj, k: string, p: string, f: (v: unknown, p: string) => T): T | undefined {
  return o[k] === undefined ? undefined : f(o[k], `${p}.${k}`);
}
function setIf<T extends object, K extends keyof T>(target: T, k: K, v: T[K] | undefined): void {
  if (v !== undefined) target[k] = v;
}
function record<T>(v: unknown, p: string, f: (v: unknown, p: string) => T): Record<string, T> {
  const o = obj(v, p);
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(o)) {
    // defineProperty, not assignment: a key such as "__proto__" (a file path, a call ID) stays an ordinary entry.
    Object.defineProperty(out, k, { value: f(x, `${p}[${JSON.stringify(k)}]`), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function toolCall(v: unknown, p: string): ToolCall {
  const o = obj(v, p);
  return { id: str(o.id, `${p}.id`), name: str(o.name, `${p}.name`), args: str(o.args, `${p}.args`) };
}
function toolResult(v: unknown, p: string): ToolResult {
  const o = obj(v, p);
  const r: ToolResult = { callId: str(o.callId, `${p}.callId`), content: str(o.content, `${p}.content`) };
  setIf(r, 'isError', optional(o, 'isError', p, bool));
  return r;
}
function message(v: unknown, p: string): Message {
  const o = obj(v, p);
  switch (o.role) {
    case 'user':
      return { role: 'user', content: str(o.content, `${p}.content`) };
    case 'assistant': {
      const m: { role: 'assistant'; text?: string; calls?: ToolCall[] } = { role: 'assistant' };
      setIf(m, 'text', optional(o, 'text', p, str));
      setIf(m, 'calls', optional(o, 'calls', p, (x, q) => arr(x, q).map((c, i) => toolCall(c, `${q}[${i}]`))));
      return m;
    }
    case 'tool':
      return { role: 'tool', results: arr(o.results, `${p}.results`).map((r, i) => toolResult(r, `${p}.results[${i}]`)) };
    default:
      throw new FieldError(`field "${p}.role" should be user, assistant or tool, found ${JSON.stringify(o.role)}`);
  }
}
function usage(v: unknown, p: string): Usage {
  const o = obj(v, p);
  const u: Usage = {
    inputTokens: num(o.inputTokens, `${p}.inputTokens`),
    outputTokens: num(o.outputTokens, `${p}.outputTokens`),
    dollars: num(o.dollars, `${p}.dollars`),
  };
  setIf(u, 'cacheReadTokens', optional(o, 'cacheReadTokens', p, num));
  setIf(u, 'cacheWriteTokens', optional(o, 'cacheWriteTokens', p, num));
  return u;
}
function reply(v: unknown, p: string): ModelReply {
  const o = obj(v, p);
  const r: ModelReply = {
    calls: arr(o.calls, `${p}.calls`).map((c, i) => toolCall(c, `${p}.calls[${i}]`)),
    usage: usage(o.usage, `${p}.usage`),
    model: str(o.model, `${p}.model`),
  };
  setIf(r, 'text', optional(o, 'text', p, str));
  setIf(r, 'replyId', optional(o, 'replyId', p, str));
  setIf(r, 'stopReason', optional(o, 'stopReason', p, str));
  setIf(r, 'truncated', optional(o, 'truncated', p, yes));
  return r;
}
function marker(v: unknown, p: string): AttemptMarker {
  const o = obj(v, p);
  const m: AttemptMarker = { callId: str(o.callId, `${p}.callId`), tool: str(o.tool, `${p}.tool`), startedAt: str(o.startedAt, `${p}.startedAt`) };
  setIf(m, 'key', optional(o, 'key', p, str));
  setIf(m, 'retentionMs', optional(o, 'retentionMs', p, num));
  setIf(m, 'before', optional(o, 'before', p, (x, q) => record(x, q, beforeRef)));
  return m;
}
function pending(v: unknown, p: string): PendingQuestion {
  const o = obj(v, p);
  if (o.kind !== 'approval' && o.kind !== 'ladder') throw new FieldError(`field "${p}.kind" should be approval or ladder, found ${JSON.stringify(o.kind)}`);
  return { kind: o.kind, callId: str(o.callId, `${p}.callId`), tool: str(o.tool, `${p}.tool`), args: str(o.args, `${p}.args`), askedAt: str(o.askedAt, `${p}.askedAt`) };
}
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A file's earlier version: a SHA-256 in the content store, or "absent". */
function beforeRef(v: unknown, p: string): string {
  const s = str(v, p);
  if (s !== ABSENT && !SHA256_HEX.test(s)) throw new FieldError(`field "${p}" should be 64 hex digits or "${ABSENT}"`);
  return s;
}
function fileRecord(v: unknown, p: string): FileRecord {
  const o = obj(v, p);
  const sha = str(o.sha256, `${p}.sha256`);
  if (!SHA256_HEX.test(sha)) throw new FieldError(`field "${p}.sha256" should be 64 hex digits`);
  const r: FileRecord = { sha256: sha, size: num(o.size, `${p}.size`), callId: str(o.callId, `${p}.callId`), writtenAt: str(o.writtenAt, `${p}.writtenAt`) };
  setIf(r, 'before', optional(o, 'before', p, beforeRef));
  return r;
}
function config(v: unknown, p: string): RunConfig {
  const o = obj(v, p);
  const c: RunConfig = {
    workspace: str(o.workspace, `${p}.workspace`),
    provider: str(o.provider, `${p}.provider`),
    model: str(o.model, `${p}.model`),
    keys: bool(o.keys, `${p}.keys`),
  };
  setIf(c, 'options', optional(o, 'options', p, (x, q) => record(x, q, str)));
  return c;
}

export function validateState(raw: unknown): RunState {
  const o = obj(raw, '$');
  if (o.version !== STATE_VERSION) {
    throw new FieldError(`field "$.version" should be ${STATE_VERSION}, found ${JSON.stringify(o.version)}`);
  }
  const phase = str(o.phase, '$.phase');
  if (!(PHASES as readonly string[]).includes(phase)) throw new FieldError(`field "$.phase" should be one of ${PHASES.join(', ')}, found "${phase}"`);
  const s: RunState = {
    version: STATE_VERSION,
    runId: str(o.runId, '$.runId'),
    task: str(o.task, '$.task'),
    createdAt: str(o.createdAt, '$.createdAt'),
    updatedAt: str(o.updatedAt, '$.updatedAt'),
    config: config(o.config, '$.config'),
    phase: phase as Phase,
    system: str(o.system, '$.system'),
    messages: arr(o.messages, '$.messages').map((m, i) => message(m, `$.messages[${i}]`)),
    usage: usage(o.usage, '$.usage'),
    turns: num(o.turns, '$.turns'),
    restarts: num(o.restarts, '$.restarts'),
  };
  setIf(s, 'summary', optional(o, 'summary', '$', (x, q) => {
    const so = obj(x, q);
    return { text: str(so.text, `${q}.text`), covers: num(so.covers, `${q}.covers`) };
  }));
  setIf(s, 'pending', optional(o, 'pending', '$', (x, q) => arr(x, q).map((e, i) => pending(e, `${q}[${i}]`))));
  setIf(s, 'lastReply', optional(o, 'lastReply', '$', reply));
  setIf(s, 'results', optional(o, 'results', '$', (x, q) => record(x, q, toolResult)));
  setIf(s, 'attempts', optional(o, 'attempts', '$', (x, q) => record(x, q, marker)));
  setIf(s, 'files', optional(o, 'files', '$', (x, q) => record(x, q, fileRecord)));
  setIf(s, 'inbox', optional(o, 'inbox', '$', (x, q) => arr(x, q).map((e, i) => str(e, `${q}[${i}]`))));
  setIf(s, 'cutReplies', optional(o, 'cutReplies', '$', num));
  setIf(s, 'answer', optional(o, 'answer', '$', str));
  return s;
}
