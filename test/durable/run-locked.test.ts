/**
 * A state folder's store says whether a run is held from its lock alone (`runLocked`): what the
 * editor asks before resuming a run at start-up and when it draws a run's panel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStateFolder } from '../../src/store/open-store';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

test('runLocked is true while a handle holds the run and false once it is closed or for an unknown run', async (t) => {
  const store = openStateFolder(tempDir(t));
  const s = sampleState();
  assert.equal(await store.runLocked(s.runId), false, 'no such run yet');
  const h = await store.createRun(s);
  assert.equal(await store.runLocked(s.runId), true);
  await h.close();
  assert.equal(await store.runLocked(s.runId), false);
  assert.equal(await store.runLocked('another-run'), false);
});
