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

test('Sentry groups: the rows show events and users and the issue, the Start row the events, and a row opens its issue in Sentry', () => {
  const sentry = [
    {
      cause: 'parse-duration-type-error',
      signature: 'TypeError @ parseDuration (src/duration.js)',
      reports: [],
      sentry: {
        id: '101',
        title: "TypeError: Cannot read properties of undefined (reading 'ms')",
        count: 1024,
        userCount: 37,
        lastSeen: '2026-12-01T10:00:00Z',
      },
    },
    {
      cause: 'total-type-error',
      signature: 'TypeError @ total (src/report.js)',
      reports: [],
      sentry: { id: '102', title: 'TypeError: Reduce', count: 1, userCount: 1 },
    },
  ];
  assert.deepEqual(groupRows(sentry, new Set(['total-type-error'])), [
    {
      label: 'parse-duration-type-error',
      description: '1024 events, 37 users',
      detail: "TypeError @ parseDuration (src/duration.js) · TypeError: Cannot read properties of undefined (reading 'ms') · last seen 2026-12-01T10:00:00Z",
      cause: 'parse-duration-type-error',
    },
    {
      label: '$(circle-slash) total-type-error',
      description: '1 event, 1 user · left out',
      detail: 'TypeError @ total (src/report.js) · TypeError: Reduce',
      cause: 'total-type-error',
    },
  ]);
  assert.equal(startRow(sentry, new Set(), 'sentry:acme/api').detail, '1025 events in the Sentry project acme/api; one issue per group');
  assert.deepEqual(groupActions('total-type-error', new Set(), true), [GROUP_ACTIONS.openInSentry, GROUP_ACTIONS.leaveOut]);
});
