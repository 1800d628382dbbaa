/**
 * Limits that cover a run's whole life: turns, tokens and dollars come from the saved
 * state, so a run that crashes every few turns still reaches them.
 */
import type { RunState } from '../durable/state';
import { BudgetExceededError } from '../core/errors';
import { tokensUsed } from '../core/conversation';

export interface Limits {
  maxTurns?: number;
  maxTokens?: number;
  maxDollars?: number;
  maxRestarts?: number;
}

export const DEFAULT_MAX_RESTARTS = 10;

/** Throws BudgetExceededError when the next model call would start past a budget. */
export function checkBudget(state: RunState, limits: Limits, estimate: { tokens: number; dollars: number } = { tokens: 0, dollars: 0 }): void {
  if (limits.maxTurns !== undefined && state.turns >= limits.maxTurns) throw new BudgetExceededError(state.runId, 'turns', state.turns, limits.maxTurns);
  const tokens = tokensUsed(state.usage);
  if (limits.maxTokens !== undefined && tokens + estimate.tokens > limits.maxTokens) throw new BudgetExceededError(state.runId, 'tokens', tokens, limits.maxTokens);
  if (limits.maxDollars !== undefined && state.usage.dollars + estimate.dollars > limits.maxDollars)
    throw new BudgetExceededError(state.runId, 'dollars', state.usage.dollars, limits.maxDollars);
}
