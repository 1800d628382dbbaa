/** The MCP sweep's counts from a scenario's log: what each column catches, on logs written by hand. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countMcpLog, parseLog } from '../../src/sweep/mcp-count';

const life = (...pending: string[]) => JSON.stringify({ t: 'life', pending });
const call = (tool: string, key: string | null = 'k1') => JSON.stringify({ t: 'call', tool, key });
const question = (tool: string) => JSON.stringify({ t: 'question', tool });
const count = (lines: string[], keys = true) => countMcpLog(parseLog(lines.join('\n') + '\n'), keys);

test('a begun call resolved by its lookup, or by a person, is neither twice nor unasked', () => {
  const byLookup = count([life(), call('search_nodes'), call('create_entities'), life('create_entities'), call('open_nodes', null)]);
  assert.deepEqual(byLookup, { pending: 1, questions: 0, lookups: 1, twice: 0, unasked: 0, badKeys: 0 });
  const byPerson = count([life(), call('create_entities'), life('create_entities'), question('create_entities')]);
  assert.deepEqual(byPerson, { pending: 1, questions: 1, lookups: 0, twice: 0, unasked: 0, badKeys: 0 });
});

test('a begun call that never reached the server is sent again after its lookup says not done: once', () => {
  const c = count([life(), call('search_nodes'), life('create_entities'), call('open_nodes', null), call('create_entities')]);
  assert.deepEqual(c, { pending: 1, questions: 0, lookups: 1, twice: 0, unasked: 0, badKeys: 0 });
});

test('a begun call sent again with nobody asked is unasked; received twice, it is twice', () => {
  const c = count([life(), call('create_entities'), life('create_entities'), call('create_entities')]);
  assert.equal(c.unasked, 1);
  assert.equal(c.twice, 1);
});

test('asking in an earlier life does not cover a call re-sent in a later one', () => {
  const c = count([life(), call('create_entities'), life('create_entities'), question('create_entities'), life('create_entities'), call('create_entities')]);
  assert.equal(c.unasked, 1);
  assert.equal(c.pending, 2);
});

test('keys: on, every mutating call carries the same key; off, none does', () => {
  assert.equal(count([life(), call('create_entities', null)]).badKeys, 1);
  assert.equal(count([life(), call('create_entities', 'a'), life('create_entities'), question('create_entities'), call('create_entities', 'b')]).badKeys, 1);
  assert.equal(count([life(), call('create_entities', 'a')], false).badKeys, 1);
  assert.equal(count([life(), call('create_entities', null)], false).badKeys, 0);
});
