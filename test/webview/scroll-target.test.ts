import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scrollTopBelowSticky } from '../../src/webview/scroll-target';

test("show the call: the call's top lands just below the sticky header, not under it", () => {
  // The call is 900px down the viewport, the page scrolled 300px, the sticky header (with the question bar) ends at 260px.
  const top = scrollTopBelowSticky(900, 300, 260);
  assert.equal(top, 300 + 900 - 260 - 8);
  // After scrolling there the call's top is at 268px in the viewport: below the header's 260px.
  assert.ok(900 - (top - 300) > 260);
  assert.equal(scrollTopBelowSticky(10, 0, 260), 0);
});
