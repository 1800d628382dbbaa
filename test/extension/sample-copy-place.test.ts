import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleCopyStart } from '../../src/extension/logic/sample-copy-place';

test('the copy of a sample is proposed beside the open folder, not inside it', () => {
  assert.equal(sampleCopyStart('/home/u/src/myrepo', '/home/u'), '/home/u/src');
  assert.equal(sampleCopyStart(undefined, '/home/u'), '/home/u');
  assert.equal(sampleCopyStart('/', '/home/u'), '/home/u');
});
