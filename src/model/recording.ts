/**
 * The recording format: a conversation the recorded model replays. Written by the
 * authoring script for the bundled tasks, and by `--record FILE` from a live run.
 */
import type { ToolCall, Usage } from '../durable/state';

export const RECORDING_VERSION = 1;

export interface RecordedTurn {
  /** What the conversation must look like when this turn is asked for (divergence check). */
  expect: {
    /** Number of messages sent (after any summary), and the call IDs of the tool results that precede the request. */
    messages: number;
    toolResults: string[];
  };
  reply: {
    text?: string;
    calls: ToolCall[];
    /** Tokens as the provider reported them; dollars are recomputed from the price table at replay. */
    usage: Omit<Usage, 'dollars'>;
    /** The provider's stop reason, and whether the reply was cut by a token limit (absent in older recordings). */
    stopReason?: string;
    truncated?: true;
  };
  /** How long the live call took, for realistic progress (the replay does not sleep by default). */
  latencyMs?: number;
}

export interface Recording {
  version: typeof RECORDING_VERSION;
  /** The task (catalog name) or a free description for a recorded live run. */
  task: string;
  /** The model that produced the replies (priced with the price table). */
  model: string;
  /** The system prompt and first user message the recording starts from. */
  system: string;
  prompt: string;
  turns: RecordedTurn[];
}

// ---------------------------------------------------------------------------
// Validation (loadRecording in recorded.ts uses it; errors name the bad field)

type Obj = Record<string, unknown>;

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}
function obj(v: unknown, p: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`field "${p}" should be an object, found ${kind(v)}`);
  return v as Obj;
}
function str(v: unknown, p: string): string {
  if (typeof v !== 'string') throw new Error(`field "${p}" should be a string, found ${kind(v)}`);
  return v;
}
function count(v: unknown, p: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`field "${p}" should be a whole number, found ${JSON.stringify(v)}`);
  return v;
}
function arr(v: unknown, p: string): unknown[] {
  if (!Array.isArray(v)) throw new Error(`field "${p}" should be an array, found ${kind(v)}`);
  return v;
}

function turn(v: unknown, p: string): RecordedTurn {
  const o = obj(v, p);
  const e = obj(o.expect, `${p}.expect`);
  const r = obj(o.reply, `${p}.reply`);
  const u = obj(r.usage, `${p}.reply.usage`);
  const usage: RecordedTurn['reply']['usage'] = {
    inputTokens: count(u.inputTokens, `${p}.reply.usage.inputTokens`),
    outputTokens: count(u.outputTokens, `${p}.reply.usage.outputTokens`),
  };
  if (u.cacheReadTokens !== undefined) usage.cacheReadTokens = count(u.cacheReadTokens, `${p}.reply.usage.cacheReadTokens`);
  if (u.cacheWriteTokens !== undefined) usage.cacheWriteTokens = count(u.cacheWriteTokens, `${p}.reply.usage.cacheWriteTokens`);
  const reply: RecordedTurn['reply'] = {
    calls: arr(r.calls, `${p}.reply.calls`).map((c, i) => {
      const q = `${p}.reply.calls[${i}]`;
      const co = obj(c, q);
      return { id: str(co.id, `${q}.id`), name: str(co.name, `${q}.name`), args: str(co.args, `${q}.args`) };
    }),
    usage,
  };
  if (r.text !== undefined) reply.text = str(r.text, `${p}.reply.text`);
  if (r.stopReason !== undefined) reply.stopReason = str(r.stopReason, `${p}.reply.stopReason`);
  if (r.truncated !== undefined) {
    if (r.truncated !== true) throw new Error(`field "${p}.reply.truncated" should be true (or absent), found ${JSON.stringify(r.truncated)}`);
    reply.truncated = true;
  }
  const t: RecordedTurn = {
    expect: {
      messages: count(e.messages, `${p}.expect.messages`),
      toolResults: arr(e.toolResults, `${p}.expect.toolResults`).map((x, i) => str(x, `${p}.expect.toolResults[${i}]`)),
    },
    reply,
  };
  if (o.latencyMs !== undefined) t.latencyMs = count(o.latencyMs, `${p}.latencyMs`);
  return t;
}

/** Checks parsed JSON is a Recording; throws an Error naming the first bad field. */
export function validateRecording(raw: unknown): Recording {
  const o = obj(raw, '$');
  if (o.version !== RECORDING_VERSION) throw new Error(`field "$.version" should be ${RECORDING_VERSION}, found ${JSON.stringify(o.version)}`);
  return {
    version: RECORDING_VERSION,
    task: str(o.task, '$.task'),
    model: str(o.model, '$.model'),
    system: str(o.system, '$.system'),
    prompt: str(o.prompt, '$.prompt'),
    turns: arr(o.turns, '$.turns').map((t, i) => turn(t, `$.turns[${i}]`)),
  };
}
