import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keptVersionsMessage, restoreConfirmMessage } from '../../src/extension/logic/restore-texts';

test('Restore asks first and then says where your versions are', () => {
  assert.match(restoreConfirmMessage('r1', ['a.js']), /^Restore the agent's version of a\.js in run r1\? Your current versions are copied/);
  assert.equal(keptVersionsMessage(['a.js', 'b.js'], '/s/kept/r1/t'), 'Durable Triage: your versions of a.js, b.js are kept in /s/kept/r1/t.');
});
