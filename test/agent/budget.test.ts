import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBudget, DEFAULT_MAX_RESTARTS } from '../../src/agent/budget';
import { BudgetExceededError } from '../../src/durable/errors';
import { freshState } from './support';

function state(turns: number, tokens: [number, number, number?], dollars: number) {
  const s = freshState('b', '/w');
  s.turns = turns;
  s.usage = { inputTokens: tokens[0], outputTokens: tokens[1], dollars, ...(tokens[2] !== undefined ? { cacheReadTokens: tokens[2] } : {}) };
  return s;
}

test('no limits, no stop; the restart default is 10', () => {
  checkBudget(state(1000, [1e9, 1e9], 1e6), {});
  assert.equal(DEFAULT_MAX_RESTARTS, 10);
});

test('turns: the call that would be turn N+1 of a maxTurns N run is refused', () => {
  checkBudget(state(2, [0, 0], 0), { maxTurns: 3 });
  assert.throws(() => checkBudget(state(3, [0, 0], 0), { maxTurns: 3 }), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'turns' && e.used === 3 && e.limit === 3);
});

test('tokens count input, output and cache tokens; dollars are compared as spent', () => {
  checkBudget(state(0, [600, 400], 0), { maxTokens: 1000 });
  assert.throws(() => checkBudget(state(0, [600, 400, 1], 0), { maxTokens: 1000 }), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'tokens' && e.used === 1001);
  checkBudget(state(0, [0, 0], 0.5), { maxDollars: 0.5 });
  assert.throws(() => checkBudget(state(0, [0, 0], 0.51), { maxDollars: 0.5 }), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars' && /Raise the budget/.test(e.message));
});
