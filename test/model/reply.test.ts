import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pricer, makeReply, fallbackCallId } from '../../src/model/reply';
import { PriceTable } from '../../src/model/prices';

test('usage is priced by the reply model, then the configured one; an unknown model is $0 and warned about once', () => {
  const warnings: string[] = [];
  const p = new Pricer(new PriceTable({ 'my-local': { input: 1, output: 2 } }), (m) => warnings.push(m));
  assert.equal(p.usage('claude-haiku-4-5-20251001', { inputTokens: 1e6, outputTokens: 0 }, 'x').dollars, 1);
  assert.equal(p.usage('served-name', { inputTokens: 1e6, outputTokens: 1e6 }, 'my-local').dollars, 3);
  const u = p.usage('mystery', { inputTokens: 5, outputTokens: 5, cacheReadTokens: 2 }, 'mystery');
  assert.deepEqual(u, { inputTokens: 5, outputTokens: 5, cacheReadTokens: 2, dollars: 0 });
  p.usage('mystery', { inputTokens: 5, outputTokens: 5 }, 'mystery');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /No price is known for model mystery.*unpriced.*price table setting/);
});

test('a reply leaves unset fields out; fallback call IDs carry the turn', () => {
  assert.deepEqual(makeReply({ text: '', calls: [], usage: { inputTokens: 0, outputTokens: 0, dollars: 0 }, model: 'm' }), {
    calls: [],
    usage: { inputTokens: 0, outputTokens: 0, dollars: 0 },
    model: 'm',
  });
  assert.equal(fallbackCallId(7)(2), 'call_t7_2');
});
