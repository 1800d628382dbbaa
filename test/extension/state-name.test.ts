import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceStateName } from '../../src/extension/logic/state-name';

test('one folder, one state name, whatever the window; other folders differ', () => {
  assert.equal(workspaceStateName('/home/u/proj'), workspaceStateName('/home/u/proj/'));
  assert.equal(workspaceStateName('/home/u/proj'), workspaceStateName('/home/u/x/../proj'));
  assert.notEqual(workspaceStateName('/home/u/proj'), workspaceStateName('/home/v/proj'));
  assert.match(workspaceStateName('/home/u/my proj'), /^my_proj-[0-9a-f]{12}$/);
});
