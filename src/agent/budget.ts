/**
 * Limits that cover a run's whole life: turns, tokens and dollars come from the saved
 * state, so a run that crashes every few turns still reaches them.
 */
import type { RunState } from '../store/state';
import { BudgetExceededError } from '../core/errors';
import { tokensUsed } from '../core/conversation';

export interface Limits {
  maxTurns?: number;
  maxTokens?: number;
  maxDollars?: number;
  maxRestarts?: number;
}

export const DEFAULT_MAX_RESTARTS = 10;

/**
 * The turns and dollars a triage run may use when nobody said otherwise (the CLI's run and
 * worker, the editor's settings): room for the bundled tasks with a wide margin (the main task
 * takes 26 turns and $0.59, batch-parser 49 turns and about $1.60), and a stop for a model that
 * loops or files without end. A user raises them (--max-turns, --max-dollars,
 * durableTriage.budget.*); Infinity is no limit.
 */
export const DEFAULT_LIMITS = { maxTurns: 100, maxDollars: 5 } as const satisfies Limits;

/** `limits` with the default turns and dollars where it names none. */
export function withDefaultLimits(limits: Limits = {}): Limits {
  return { ...limits, maxTurns: limits.maxTurns ?? DEFAULT_LIMITS.maxTurns, maxDollars: limits.maxDollars ?? DEFAULT_LIMITS.maxDollars };
}

/** Throws BudgetExceededError when the next model call would start past a budget. */
export function checkBudget(state: RunState, limits: Limits, estimate: { tokens: number; dollars: number } = { tokens: 0, dollars: 0 }): void {
  if (limits.maxTurns !== undefined && state.turns >= limits.maxTurns) throw new BudgetExceededError(state.runId, 'turns', state.turns, limits.maxTurns);
  const tokens = tokensUsed(state.usage);
  if (limits.maxTokens !== undefined && tokens + estimate.tokens > limits.maxTokens)
    throw new BudgetExceededError(state.runId, 'tokens', tokens, limits.maxTokens);
  if (limits.maxDollars !== undefined && state.usage.dollars + estimate.dollars > limits.maxDollars)
    throw new BudgetExceededError(state.runId, 'dollars', state.usage.dollars, limits.maxDollars);
}
