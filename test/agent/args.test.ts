import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../src/agent/args';
import type { JsonSchema } from '../../src/agent/tool';

const schema: JsonSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, line: { type: 'integer' }, all: { type: 'boolean' }, mode: { type: 'string', enum: ['a', 'b'] }, tags: { type: 'array' } },
  required: ['path'],
};

test('valid arguments parse to an object', () => {
  assert.deepEqual(parseArgs('t', '{"path":"x","line":3,"all":true,"mode":"a","tags":[]}', schema), { ok: true, args: { path: 'x', line: 3, all: true, mode: 'a', tags: [] } });
  assert.deepEqual(parseArgs('t', '', { type: 'object', properties: {} }), { ok: true, args: {} });
});

test('each problem is an error naming the tool and what is wrong', () => {
  const cases: [string, RegExp][] = [
    ['{"path": "a.js"', /^Invalid arguments for t: .*JSON/],
    ['[1]', /expected a JSON object/],
    ['null', /expected a JSON object/],
    ['{}', /"path" is required/],
    ['{"path": 1}', /"path" should be a string/],
    ['{"path": "x", "line": 1.5}', /"line" should be an integer/],
    ['{"path": "x", "all": "yes"}', /"all" should be a boolean/],
    ['{"path": "x", "mode": "c"}', /"mode" should be one of a, b/],
    ['{"path": "x", "tags": {}}', /"tags" should be an array/],
  ];
  for (const [raw, want] of cases) {
    const r = parseArgs('t', raw, schema);
    assert.equal(r.ok, false, raw);
    assert.match(r.ok ? '' : r.error, want, raw);
  }
});

test('unknown arguments are refused only when the schema says additionalProperties: false; inherited names are not properties', () => {
  assert.equal(parseArgs('t', '{"path":"x","extra":1}', schema).ok, true);
  const strict: JsonSchema = { ...schema, additionalProperties: false };
  const r = parseArgs('t', '{"path":"x","constructor":1}', strict);
  assert.match(r.ok ? '' : r.error, /unknown argument "constructor"/);
  const req: JsonSchema = { type: 'object', properties: {}, required: ['toString'] };
  assert.match((r => (r.ok ? '' : r.error))(parseArgs('t', '{}', req)), /"toString" is required/);
});
