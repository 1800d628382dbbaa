/**
 * Cheap, deterministic size estimates (about four characters per token) so the loop can
 * stop BEFORE a model call that would push a run past its token or dollar budget, and the
 * context policy can tell when a conversation outgrows the model's window.
 */
import type { RunState } from '../durable/state';
import type { Message, Usage } from '../core/conversation';
import { BudgetExceededError } from '../core/errors';
import type { ModelRequest } from './provider';
import { PriceTable } from './prices';

export const CHARS_PER_TOKEN = 4;

export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters a message puts on the wire (content, text, call names and raw args, result contents). */
export function messageChars(m: Message): number {
  switch (m.role) {
    case 'user':
      return m.content.length;
    case 'assistant':
      return (m.text?.length ?? 0) + (m.calls ?? []).reduce((n, c) => n + c.id.length + c.name.length + c.args.length, 0);
    case 'tool':
      return m.results.reduce((n, r) => n + r.callId.length + r.content.length, 0);
  }
}

/** Estimated input tokens of a request: system, summary, messages and tool specs. */
export function estimateRequestTokens(req: ModelRequest): number {
  let chars = req.system.length + (req.summary?.text.length ?? 0);
  for (const m of req.messages) chars += messageChars(m);
  for (const t of req.tools) chars += t.name.length + t.description.length + JSON.stringify(t.schema).length;
  return tokensOfChars(chars);
}

export interface CallEstimate {
  tokens: number;
  dollars: number;
}

/**
 * Estimated cost of sending `req` to `model`: its input tokens (plus `outputAllowance`
 * output tokens, e.g. the reply's max_tokens when you want to be strict), priced as
 * uncached input. Unknown models cost $0.
 */
export function estimateCall(req: ModelRequest, model: string, prices: PriceTable = new PriceTable(), outputAllowance = 0): CallEstimate {
  const tokens = estimateRequestTokens(req);
  return { tokens: tokens + outputAllowance, dollars: prices.dollars(model, { inputTokens: tokens, outputTokens: outputAllowance }) };
}

/** Every token a run was billed for: input, output, and cache reads and writes. */
export function tokensUsed(u: Usage): number {
  return u.inputTokens + u.outputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
}

/** The budget part of the loop's Limits (structurally the same fields). */
export interface BudgetLimits {
  maxTokens?: number;
  maxDollars?: number;
}

/**
 * The error to throw when the next call (of `estimate` tokens, or a CallEstimate) would
 * take the run past its token or dollar budget; undefined when it fits. Spending comes
 * from the state, so the check covers the run's whole life across restarts.
 */
export function wouldExceed(state: RunState, limits: BudgetLimits, estimate: number | CallEstimate): BudgetExceededError | undefined {
  const e = typeof estimate === 'number' ? { tokens: estimate, dollars: 0 } : estimate;
  if (limits.maxTokens !== undefined) {
    const next = tokensUsed(state.usage) + e.tokens;
    if (next > limits.maxTokens) return new BudgetExceededError(state.runId, 'tokens', next, limits.maxTokens);
  }
  if (limits.maxDollars !== undefined) {
    const next = state.usage.dollars + e.dollars;
    if (next > limits.maxDollars) return new BudgetExceededError(state.runId, 'dollars', next, limits.maxDollars);
  }
  return undefined;
}
