import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateRequestTokens, estimateCall, wouldExceed, tokensUsed } from '../../src/model/estimate';
import { BudgetExceededError } from '../../src/core/errors';
import { newState } from '../../src/durable/state';
import { request } from './support/wire';

function state() {
  const s = newState({ runId: 'r1', task: 't', config: { workspace: '/w', provider: 'anthropic', model: 'claude-sonnet-4-5', keys: true }, system: 's', prompt: 'p' });
  s.usage = { inputTokens: 9000, outputTokens: 500, cacheReadTokens: 400, dollars: 0.05 };
  return s;
}

test('request tokens: about a quarter of the characters of system, summary, messages and tools', () => {
  const req = request({ system: 'x'.repeat(400), messages: [{ role: 'user', content: 'y'.repeat(800) }], tools: [], summary: { text: 'z'.repeat(400), covers: 1 } });
  assert.equal(estimateRequestTokens(req), 400);
  const withTools = estimateRequestTokens(request());
  assert.ok(withTools > estimateRequestTokens(request({ tools: [] })));
});

test('a call estimate is priced as uncached input (plus any output allowance)', () => {
  const req = request({ system: 'x'.repeat(4000), messages: [{ role: 'user', content: '' }], tools: [] });
  const e = estimateCall(req, 'claude-sonnet-4-5', undefined, 1000);
  assert.equal(e.tokens, 2000);
  assert.ok(Math.abs(e.dollars - (1000 * 3 + 1000 * 15) / 1e6) < 1e-12);
  assert.equal(estimateCall(req, 'unknown-local-model').dollars, 0);
});

test('wouldExceed: the error to throw before a call that passes the token or dollar budget, else undefined', () => {
  const s = state();
  assert.equal(tokensUsed(s.usage), 9900);
  assert.equal(wouldExceed(s, {}, 1_000_000), undefined);
  assert.equal(wouldExceed(s, { maxTokens: 10_000 }, 100), undefined);
  const t = wouldExceed(s, { maxTokens: 10_000 }, 101);
  assert.ok(t instanceof BudgetExceededError);
  assert.equal(t.budget, 'tokens');
  assert.equal(t.used, 10_001);
  assert.equal(t.limit, 10_000);
  assert.match(t.message, /Raise the budget and resume it/);
  const d = wouldExceed(s, { maxDollars: 0.06 }, { tokens: 10, dollars: 0.02 });
  assert.ok(d instanceof BudgetExceededError);
  assert.equal(d.budget, 'dollars');
  assert.equal(wouldExceed(s, { maxDollars: 0.06 }, { tokens: 10, dollars: 0.005 }), undefined);
});
