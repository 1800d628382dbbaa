import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBudget, DEFAULT_MAX_RESTARTS } from '../../src/agent/budget';
import { BudgetExceededError, MaxResumesError } from '../../src/core/errors';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { tokensUsed } from '../../src/core/conversation';
import { SavePoint } from '../../src/store/save-points';
import { readRun } from '../../src/store/files/checkpoint';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { freshState, Person, ScriptModel } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

function state(turns: number, tokens: [number, number, number?], dollars: number) {
  const s = freshState('b', '/w');
  s.turns = turns;
  s.usage = { inputTokens: tokens[0], outputTokens: tokens[1], dollars, ...(tokens[2] !== undefined ? { cacheReadTokens: tokens[2] } : {}) };
  return s;
}

test('no limits, no stop', () => {
  assert.doesNotThrow(() => checkBudget(state(1000, [1e9, 1e9], 1e6), {}));
});

test('the restart limit defaults to 10: a run is resumed 10 times, the 11th resume stops with MaxResumesError', async (t) => {
  const dir = tempDir(t);
  const parts = (): RunParts => ({ model: new ScriptModel([]), tools: toolSet([]), approver: new Person() });
  // A run that pauses at once would need a question; instead each life is crashed right after its restart count is saved.
  const crash = (p: string): void => {
    if (p === SavePoint.RunStarted) throw new SimulatedCrash(p);
  };
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('r10', dir), parts, crash }), SimulatedCrash);
  for (let i = 1; i <= DEFAULT_MAX_RESTARTS; i++) {
    await assert.rejects(resumeRun({ runStore: openStore(dir), runId: 'r10', parts, crash }), SimulatedCrash, `resume ${i} is within the default limit`);
  }
  // The 11th resume (no crash this time) saves its count, then stops at the limit.
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r10', parts }),
    (e: unknown) => e instanceof MaxResumesError && e.limit === 10 && e.restarts === 11,
  );
  assert.equal((await readRun(dir, 'r10')).restarts, DEFAULT_MAX_RESTARTS + 1, 'the count was saved before the limit stopped it');
});

test('turns: the call that would be turn N+1 of a maxTurns N run is refused', () => {
  checkBudget(state(2, [0, 0], 0), { maxTurns: 3 });
  assert.throws(
    () => checkBudget(state(3, [0, 0], 0), { maxTurns: 3 }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'turns' && e.used === 3 && e.limit === 3,
  );
});

test("the next call's estimate counts: a call that would pass the token or dollar budget is refused before it is made", () => {
  assert.equal(tokensUsed(state(0, [9000, 500, 400], 0).usage), 9900);
  assert.doesNotThrow(() => checkBudget(state(0, [9000, 500, 400], 0), { maxTokens: 10_000 }, { tokens: 100, dollars: 0 }));
  assert.throws(
    () => checkBudget(state(0, [9000, 500, 400], 0), { maxTokens: 10_000 }, { tokens: 101, dollars: 0 }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'tokens' && /Raise the budget/.test(e.message),
  );
  assert.doesNotThrow(() => checkBudget(state(0, [0, 0], 0.05), { maxDollars: 0.06 }, { tokens: 10, dollars: 0.005 }));
  assert.throws(
    () => checkBudget(state(0, [0, 0], 0.05), { maxDollars: 0.06 }, { tokens: 10, dollars: 0.02 }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars',
  );
});

test('tokens count input, output and cache tokens; dollars are compared as spent', () => {
  checkBudget(state(0, [600, 400], 0), { maxTokens: 1000 });
  assert.throws(
    () => checkBudget(state(0, [600, 400, 1], 0), { maxTokens: 1000 }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'tokens' && e.used === 1001,
  );
  checkBudget(state(0, [0, 0], 0.5), { maxDollars: 0.5 });
  assert.throws(
    () => checkBudget(state(0, [0, 0], 0.51), { maxDollars: 0.5 }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars' && /Raise the budget/.test(e.message),
  );
});
