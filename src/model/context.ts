/**
 * The context policy: when the conversation outgrows the model's window, older turns are
 * replaced by a summary kept in the run state (state.summary = { text, covers }), so a
 * resumed run sends exactly the same context.
 *
 * The summary is deterministic (no model call): the task text, then one line per older
 * message (what the model said, the calls it made with their results' first words).
 * Once set it is only extended: a later summary is the earlier text plus lines for the
 * newly covered messages. `covers` only ever moves to a message that is not a tool
 * result, so an assistant's tool calls and their results stay on the same side.
 */
import type { ContextSummary, Message, ToolCall } from '../core/conversation';
import type { StateView } from '../store/state-edit';
import type { ModelRequest } from './provider';
import { messageChars, tokensOfChars } from './estimate';
import { abortError } from './attempt';

/** The loop's hook before each model call (src/agent/loop.ts declares the same shape). */
export interface ContextPolicy {
  prepare(state: StateView, signal: AbortSignal): Promise<ContextSummary | undefined>;
}

/** Context windows in tokens, by model name prefix (longest prefix wins). */
export const MODEL_WINDOWS: Readonly<Record<string, number>> = {
  claude: 200_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-5': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
};
/** For a model we know nothing about (a local server's): small enough for most. */
export const DEFAULT_WINDOW = 32_000;

export function contextWindow(model: string, table: Readonly<Record<string, number>> = MODEL_WINDOWS): number {
  let best: [string, number] | undefined;
  for (const [name, w] of Object.entries(table)) if (model.startsWith(name) && (!best || name.length > best[0].length)) best = [name, w];
  return best?.[1] ?? DEFAULT_WINDOW;
}

export interface WindowPolicyOptions {
  /** The window in tokens; default: from the run's model (state.config.model). */
  windowTokens?: number;
  /** Summarise when the estimated context passes this share of the window (default 0.8). */
  threshold?: number;
  /** Cover older messages until the context is under this share of the window (default 0.5). */
  target?: number;
}

const HEADER = "[Summary of earlier turns: they were replaced to fit the model's context window.]";
const TASK_CHARS = 8_000;
const LINE_CHARS = 240;
const HEAD_CHARS = 120;

export class WindowContextPolicy implements ContextPolicy {
  constructor(private readonly o: WindowPolicyOptions = {}) {}

  async prepare(state: StateView, signal: AbortSignal): Promise<ContextSummary | undefined> {
    if (signal.aborted) throw abortError(signal);
    const window = this.o.windowTokens ?? contextWindow(state.config.model);
    const covers = state.summary?.covers ?? 0;
    if (contextTokens(state, state.summary, covers) <= window * (this.o.threshold ?? 0.8)) return undefined;
    const cuts = cutPoints(state.messages).filter((i) => i > covers);
    if (cuts.length === 0) return undefined;
    const goal = window * (this.o.target ?? 0.5);
    let chosen: ContextSummary | undefined;
    for (const i of cuts) {
      chosen = extendSummary(state.messages, state.summary, i);
      if (contextTokens(state, chosen, i) <= goal) break;
    }
    return chosen;
  }
}

/** Estimated tokens of what the loop would send: system, summary and the messages after `covers`. */
function contextTokens(state: StateView, summary: ContextSummary | undefined, covers: number): number {
  let chars = state.system.length + (summary?.text.length ?? 0);
  for (const m of state.messages.slice(covers)) chars += messageChars(m);
  return tokensOfChars(chars);
}

/** Indexes where the kept part may start: not a tool result (it would lose its calls), and never past the last message. */
export function cutPoints(messages: readonly Message[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < messages.length; i++) if (messages[i].role !== 'tool') out.push(i);
  return out;
}

/** The summary covering messages [0, covers): the previous summary's text, extended with the newly covered messages. */
export function extendSummary(messages: readonly Message[], prev: ContextSummary | undefined, covers: number): ContextSummary {
  if (prev && covers <= prev.covers) return prev;
  const from = prev?.covers ?? 0;
  const lines: string[] = [];
  if (!prev) {
    lines.push(HEADER);
    const first = messages[0];
    if (first?.role === 'user') lines.push('The task:', clip(first.content, TASK_CHARS), '', 'Done so far (oldest first):');
    else lines.push('Done so far (oldest first):');
  }
  const start = prev ? from : messages[0]?.role === 'user' ? 1 : 0; // the task is already in the text
  for (let i = start; i < covers; i++) lines.push(...describe(messages, i));
  return { text: prev ? `${prev.text}\n${lines.join('\n')}` : lines.join('\n'), covers };
}

function describe(messages: readonly Message[], i: number): string[] {
  const m = messages[i];
  switch (m.role) {
    case 'user':
      return [`- the user said: ${head(m.content, LINE_CHARS)}`];
    case 'assistant': {
      const out: string[] = [];
      if (m.text) out.push(`- you said: ${head(m.text, LINE_CHARS)}`);
      for (const c of m.calls ?? []) out.push(`- you called ${c.name} ${head(c.args, HEAD_CHARS)}`);
      return out;
    }
    case 'tool': {
      const prev = messages[i - 1];
      const calls: ToolCall[] = prev?.role === 'assistant' ? (prev.calls ?? []) : [];
      return m.results.map((r) => {
        const name = calls.find((c) => c.id === r.callId)?.name ?? r.callId;
        return `  ${name} ${r.isError ? 'failed' : 'returned'}: ${head(r.content, HEAD_CHARS)}`;
      });
    }
  }
}

function head(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= n ? one : `${one.slice(0, n)}…`;
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n)}…`;
}

/**
 * The messages a provider sends for a request: the summary (when there is one) as the
 * first user message, merged into the first message when that is the user's too.
 */
export function withSummary(req: Pick<ModelRequest, 'messages' | 'summary'>): Message[] {
  if (!req.summary) return req.messages;
  const first = req.messages[0];
  if (first?.role === 'user') return [{ role: 'user', content: `${req.summary.text}\n\n${first.content}` }, ...req.messages.slice(1)];
  return [{ role: 'user', content: req.summary.text }, ...req.messages];
}
