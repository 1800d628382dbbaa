import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GROUP_ACTIONS, applyGroupAction, groupActions, groupRows, startRow } from '../../src/extension/logic/crash-groups-pick';

const groups = [
  { cause: 'npe', signature: 'TypeError at a.js', reports: ['c/1.log', 'c/2.log'] },
  { cause: 'oom', signature: 'RangeError at b.js', reports: ['c/3.log'] },
];

test('a crash group row offers its reports and leaving it out; a group left out can be taken back', () => {
  assert.deepEqual(groupActions('npe', new Set()), [GROUP_ACTIONS.show, GROUP_ACTIONS.leaveOut]);
  const out = applyGroupAction(GROUP_ACTIONS.leaveOut, 'npe', new Set());
  assert.deepEqual([...out], ['npe']);
  assert.deepEqual(groupActions('npe', out), [GROUP_ACTIONS.show, GROUP_ACTIONS.include]);
  assert.deepEqual([...applyGroupAction(GROUP_ACTIONS.include, 'npe', out)], []);
  assert.deepEqual([...applyGroupAction(GROUP_ACTIONS.show, 'oom', out)], ['npe']);
});

test('the Start row counts the groups kept; the rows say which are left out', () => {
  assert.match(startRow(groups, new Set(), 'c').label, /on these 2 crash groups$/);
  const out = new Set(['npe']);
  const s = startRow(groups, out, 'c');
  assert.match(s.label, /on these 1 crash group \(1 left out\)/);
  assert.equal(s.detail, '1 report in c; one issue per group');
  assert.equal(s.canStart, true);
  assert.match(groupRows(groups, out)[0].description, /left out/);
  assert.equal(startRow(groups, new Set(['npe', 'oom']), 'c').canStart, false);
});
