import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateRequestTokens, estimateCall } from '../../src/model/estimate';
import { request } from './support/wire';

test('request tokens: about a quarter of the characters of system, summary, messages and tools', () => {
  const req = request({
    system: 'x'.repeat(400),
    messages: [{ role: 'user', content: 'y'.repeat(800) }],
    tools: [],
    summary: { text: 'z'.repeat(400), covers: 1 },
  });
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
