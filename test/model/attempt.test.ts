import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withAttemptTimeout, AttemptTimeoutError } from '../../src/model/attempt';

test('attempt timeout: fires when nothing happens, is re-armed by activity, and clears its timer', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const outer = new AbortController().signal;
  let activity: () => void = () => {};
  let finish: (v: string) => void = () => {};
  let timedOut = false;
  const p = withAttemptTimeout(outer, 100, (s, a) => {
    activity = a;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      s.addEventListener('abort', () => reject(new Error('aborted')));
    });
  });
  p.catch((e: unknown) => (timedOut = e instanceof AttemptTimeoutError));
  t.mock.timers.tick(90);
  activity(); // a chunk arrived: 100 ms from now again
  t.mock.timers.tick(90);
  await Promise.resolve();
  assert.equal(timedOut, false);
  t.mock.timers.tick(20);
  await assert.rejects(p, (e: unknown) => e instanceof AttemptTimeoutError && /no answer/.test(e.message));
  assert.equal(timedOut, true);
  finish('late');

  // Work that finishes in time resolves, and its timer is gone.
  const q = withAttemptTimeout(outer, 100, async () => 'ok');
  assert.equal(await q, 'ok');
  t.mock.timers.reset();
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, 0);
});

test('attempt timeout: the caller aborting wins at once even if the work ignores its signal', async () => {
  const ac = new AbortController();
  let finish: () => void = () => {};
  const p = withAttemptTimeout(ac.signal, 60_000, () => new Promise<string>((r) => (finish = () => r('late'))));
  ac.abort();
  await assert.rejects(p, (e: unknown) => e instanceof Error && e.name === 'AbortError');
  finish();
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, 0);
});
