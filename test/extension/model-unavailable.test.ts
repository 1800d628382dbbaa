import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageModelUnavailableError, modelUnavailableView } from '../../src/extension/logic/model-unavailable';
import { errorView } from '../../src/extension/logic/error-view';

test('no VS Code language model at Start: one prefix, one short line, Choose Another Model and Set API Key', () => {
  const v = modelUnavailableView(new LanguageModelUnavailableError(undefined, []), true);
  assert.equal(v.message.match(/Durable Triage/g)?.length, 1);
  assert.ok(!v.message.includes('\n'));
  assert.ok(v.message.length <= 160, `${v.message.length} characters: ${v.message}`);
  assert.deepEqual(v.buttons, ['Choose Another Model', 'Set API Key']);
  assert.match(v.message, /recorded demo/);
});

test('a crash folder cannot use the recorded demo: it is not suggested', () => {
  const v = modelUnavailableView(new LanguageModelUnavailableError(undefined, []), false);
  assert.doesNotMatch(v.message, /recorded/);
  assert.match(v.message, /choose another model/);
});

test('a named model that is not there lists the ones that are', () => {
  const v = modelUnavailableView(new LanguageModelUnavailableError('gpt-9', ['gpt-4o', 'claude']), false);
  assert.match(v.message, /^Durable Triage: the VS Code language model "gpt-9" is not available \(there are: gpt-4o, claude\)/);
});

test('on resume (no model pick to go back to) the stop says it once, without a recorded-demo hint', () => {
  const v = errorView(new LanguageModelUnavailableError(undefined, []), 'r1');
  assert.equal(v.message.match(/Durable Triage/g)?.length, 1);
  assert.doesNotMatch(v.message, /recorded/);
});
