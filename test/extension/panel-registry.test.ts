import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PanelRegistry, strayTabs } from '../../src/extension/logic/panel-registry';

test('one panel per run: a panel restored after the run was shown is closed, not adopted over the live one', () => {
  const r = new PanelRegistry<string>();
  assert.deepEqual(r.adopt('run-1', 'created', 'created'), { keep: 'created', close: [] });
  assert.deepEqual(r.adopt('run-1', 'restored', 'restored'), { keep: 'created', close: ['restored'] });
  assert.equal(r.get('run-1'), 'created');
  assert.deepEqual(r.entries(), [['run-1', 'created']]);
});

test("a window restored with the run's tab twice keeps the first and closes the second", () => {
  const r = new PanelRegistry<string>();
  r.adopt('run-1', 'a', 'restored');
  assert.deepEqual(r.adopt('run-1', 'b', 'restored').close, ['b']);
  r.adopt('run-2', 'c', 'restored');
  assert.deepEqual(
    r.entries().map(([id]) => id),
    ['run-1', 'run-2'],
  );
});

test("closing a panel forgets it only if it is the run's panel", () => {
  const r = new PanelRegistry<string>();
  r.adopt('run-1', 'a', 'created');
  r.forget('run-1', 'b');
  assert.equal(r.get('run-1'), 'a');
  r.forget('run-1', 'a');
  assert.equal(r.has('run-1'), false);
  assert.deepEqual(r.adopt('run-1', 'b', 'created'), { keep: 'b', close: [] });
});

test('stray tabs: the run\'s Run panel tabs (with or without "waiting for you"), of this view type only', () => {
  const tabs = [
    { label: 'Run: main…abc12345', viewType: 'mainThreadWebview-durableTriage.run' },
    { label: 'Run: main…abc12345 (waiting for you)', viewType: 'durableTriage.run' },
    { label: 'Run: main…zzz99999', viewType: 'durableTriage.run' },
    { label: 'Run: main…abc12345', viewType: 'other.view' },
    { label: 'Run: main…abc12345', viewType: undefined },
  ];
  assert.deepEqual(
    strayTabs(tabs, 'durableTriage.run', 'Run: main…abc12345').map((t) => t.label),
    ['Run: main…abc12345', 'Run: main…abc12345 (waiting for you)'],
  );
  assert.deepEqual(strayTabs(tabs, 'durableTriage.run', 'Run: main…abc1234'), []);
});
