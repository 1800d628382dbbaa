import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOST_AFTER_MS, heard, hostLost, pinged } from '../../src/webview/liveness';

test('a panel whose pings go unanswered for LOST_AFTER_MS knows its extension host is gone', () => {
  let l = pinged({}, 1000);
  assert.equal(hostLost(l, 1000 + LOST_AFTER_MS - 1), false);
  l = pinged(l, 3000); // the oldest unanswered ping counts
  assert.equal(l.unansweredSince, 1000);
  assert.equal(hostLost(l, 1000 + LOST_AFTER_MS), true);
});

test('an answer clears the wait: a live extension is never reported lost', () => {
  let l = pinged({}, 0);
  l = heard();
  assert.equal(hostLost(l, 10 * LOST_AFTER_MS), false);
  l = pinged(l, 50_000);
  assert.equal(hostLost(l, 50_000 + LOST_AFTER_MS - 1), false);
});
