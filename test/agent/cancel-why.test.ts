// A run stopped because its window closed records why (issue #23 item 4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelledError } from '../../src/core/errors';
import { RunHistory } from '../../src/agent/history';
import type { RunEvent, RunEventStore } from '../../src/store/run-event';

test("a cancel by the closing window is recorded as window-closed; a person's Cancel as cancelled", async () => {
  const appended: RunEvent[] = [];
  const store = {
    append: async (_id: string, es: RunEvent[]) => void appended.push(...es),
    read: async () => ({ events: appended, skipped: 0 }),
  } as unknown as RunEventStore;
  const h = new RunHistory(store, 'r1', () => new Date(0));
  h.failed(new CancelledError('r1', 'window-closed'));
  h.failed(new CancelledError('r1'));
  await h.settle();
  assert.deepEqual(
    appended.map((e) => (e.type === 'stopped' ? [e.how, e.code] : [])),
    [
      ['cancelled', 'window-closed'],
      ['cancelled', 'cancelled'],
    ],
  );
});
