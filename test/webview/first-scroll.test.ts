import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstScroll } from '../../src/webview/first-scroll';

test('a panel restored after a reload opens at the question the run waits on, not at the scroll saved before', () => {
  assert.deepEqual(firstScroll({ restored: true, savedY: 1200, pendingCallId: 'c9', active: false }), { to: 'question', callId: 'c9' });
  assert.deepEqual(firstScroll({ restored: true, savedY: 1200, pendingCallId: 'c9', active: true }), { to: 'question', callId: 'c9' });
});

test('a panel restored after a reload with no question opens at the end (where the run stopped)', () => {
  assert.deepEqual(firstScroll({ restored: true, savedY: 1200, active: false }), { to: 'end' });
  assert.deepEqual(firstScroll({ restored: true, active: false }), { to: 'end' });
});

test('a tab shown again keeps the place the person left', () => {
  assert.deepEqual(firstScroll({ restored: false, savedY: 640, pendingCallId: 'c9', active: true }), { to: 'saved', y: 640 });
});

test('a new panel: at the question, else a live run at its end and a stopped one from the top', () => {
  assert.deepEqual(firstScroll({ restored: false, pendingCallId: 'c1', active: false }), { to: 'question', callId: 'c1' });
  assert.deepEqual(firstScroll({ restored: false, active: true }), { to: 'end' });
  assert.deepEqual(firstScroll({ restored: false, savedY: 0, active: false }), { to: 'top' });
});
