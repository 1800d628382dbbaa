import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASKED_ELSEWHERE_TEXT, questionOffer } from '../../src/webview/question-bar';

test("a second window's panel does not offer Approve/Deny for a question asked in the first: it says where it is asked", () => {
  assert.deepEqual(questionOffer({ active: false, locked: true }), { kind: 'elsewhere', text: ASKED_ELSEWHERE_TEXT });
});

test('the window running the run, or a paused run nobody has open, offers the buttons', () => {
  assert.deepEqual(questionOffer({ active: true, locked: false }), { kind: 'buttons' });
  assert.deepEqual(questionOffer({ active: false, locked: false }), { kind: 'buttons' });
});
