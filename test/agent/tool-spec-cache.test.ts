// A tool set is made again in every life and turn: its JSON Schemas must not be (zod's
// toJSONSchema over every tool was an eighth of a run's CPU). Each schema is made once per
// schema object; a schema that names the run's causes once per set of causes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { toolSpec } from '../../src/agent/tool-args';
import { triageTools } from '../../src/tools';
import type { Tracker } from '../../src/tracker/tracker';

const tracker = {} as Tracker;

test('two tool sets made apart share each JSON Schema; other causes get their own', () => {
  const a = triageTools({ tracker, keys: true, causes: ['parse-error', 'null-user'] });
  const b = triageTools({ tracker, keys: true, causes: ['parse-error', 'null-user'] });
  const c = triageTools({ tracker, keys: true, causes: ['other-cause'] });
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    assert.notEqual(a[i], b[i], 'the tools themselves are new objects');
    assert.equal(toolSpec(a[i]).schema, toolSpec(b[i]).schema, `${a[i].name}: the same JSON Schema object`);
  }
  const issueA = toolSpec(a.find((t) => t.name === 'issue_file')!).schema;
  const issueC = toolSpec(c.find((t) => t.name === 'issue_file')!).schema;
  assert.notEqual(issueA, issueC);
  assert.deepEqual((issueA.properties.cause as { enum?: string[] }).enum, ['parse-error', 'null-user']);
  assert.deepEqual((issueC.properties.cause as { enum?: string[] }).enum, ['other-cause']);
});
