import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withRetry, retryDelay, isRetryable, sleep } from '../../src/model/retry';
import { HttpStatusError, TransientError, AttemptTimeoutError } from '../../src/model/attempt';
import { ModelError } from '../../src/core/errors';
import { recordingSleep } from './support/fake-server';

const ctx = { provider: 'TestAPI', hint: (s: number) => (s === 401 ? 'Check your API key (TEST_KEY).' : undefined) };
const live = (): AbortSignal => new AbortController().signal;

function script<T>(outcomes: (T | Error)[]): { run: () => Promise<T>; calls: () => number } {
  let n = 0;
  return {
    run: async () => {
      const o = outcomes[n++];
      if (o instanceof Error) throw o;
      return o as T;
    },
    calls: () => n,
  };
}

test('what is retried: 408, 429, 5xx (529 too), transient network errors and timeouts; not 400/401/403/404', () => {
  for (const s of [408, 429, 500, 502, 503, 529]) assert.equal(isRetryable(new HttpStatusError(s, 'x')), true, String(s));
  for (const s of [400, 401, 403, 404, 422]) assert.equal(isRetryable(new HttpStatusError(s, 'x')), false, String(s));
  assert.equal(isRetryable(new TransientError('socket hang up')), true);
  assert.equal(isRetryable(new AttemptTimeoutError(1000)), true);
  assert.equal(isRetryable(new Error('a bug')), false);
});

test('backoff doubles from the base, is capped, and jitters between half and all of it', () => {
  const o = { baseDelayMs: 1000, maxDelayMs: 5000 };
  assert.equal(retryDelay(new TransientError('x'), 1, { ...o, random: () => 0 }), 500);
  assert.equal(retryDelay(new TransientError('x'), 2, { ...o, random: () => 0 }), 1000);
  assert.equal(retryDelay(new TransientError('x'), 3, { ...o, random: () => 0.999999 }), 4000);
  assert.equal(retryDelay(new TransientError('x'), 10, { ...o, random: () => 0 }), 2500);
  assert.equal(retryDelay(new HttpStatusError(429, 'x', 12_345), 1, o), 12_345);
});

test('one result however many attempts; each wait is told to onRetry', async () => {
  const sl = recordingSleep();
  const s = script(['reply', new HttpStatusError(503, 'busy'), new TransientError('ECONNRESET')].reverse());
  const seen: number[] = [];
  const r = await withRetry(s.run, live(), ctx, { sleep: sl.sleep, random: () => 0, onRetry: (i) => seen.push(i.attempt) });
  assert.equal(r, 'reply');
  assert.equal(s.calls(), 3);
  assert.deepEqual(sl.delays, [500, 1000]);
  assert.deepEqual(seen, [1, 2]);
});

test('a non-retryable status fails at once as a ModelError with the status, message and hint', async () => {
  const sl = recordingSleep();
  const s = script([new HttpStatusError(401, 'invalid key.')]);
  await assert.rejects(withRetry(s.run, live(), ctx, { sleep: sl.sleep }), (e: unknown) => {
    assert.ok(e instanceof ModelError);
    assert.equal(
      e.message,
      'TestAPI returned HTTP 401: invalid key. Check your API key (TEST_KEY). The run was saved before this call; resume it to try again.',
    );
    return true;
  });
  assert.equal(s.calls(), 1);
  assert.deepEqual(sl.delays, []);
});

test('a retry-after past the total wait limit gives up instead of waiting', async () => {
  const sl = recordingSleep();
  const s = script([new HttpStatusError(429, 'quota', 200_000), 'never']);
  await assert.rejects(
    withRetry(s.run, live(), ctx, { sleep: sl.sleep, maxTotalWaitMs: 60_000 }),
    /HTTP 429: quota\..*Gave up: the next wait \(200 s\) would pass the 60 s retry limit/,
  );
  assert.equal(s.calls(), 1);
  assert.deepEqual(sl.delays, []);
});

test('waits add up against the total: the attempt whose wait would pass it is the last', async () => {
  const sl = recordingSleep();
  const e = (): HttpStatusError => new HttpStatusError(500, 'down', 40_000);
  const s = script([e(), e(), e(), 'never']);
  await assert.rejects(withRetry(s.run, live(), ctx, { sleep: sl.sleep, maxTotalWaitMs: 100_000 }), /after 3 attempts/);
  assert.deepEqual(sl.delays, [40_000, 40_000]);
});

test('an abort while waiting rejects at once with the AbortError and leaves no timer', async () => {
  const ac = new AbortController();
  const s = script([new HttpStatusError(429, 'wait', 60_000), 'never']);
  const p = withRetry(s.run, ac.signal, ctx, { sleep });
  await new Promise((r) => setImmediate(r));
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, 1); // the 60 s wait
  ac.abort();
  await assert.rejects(p, (e: unknown) => e instanceof Error && e.name === 'AbortError');
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, 0);
  assert.equal(s.calls(), 1);
});

test('an AbortError from the attempt is passed through unwrapped and not retried', async () => {
  const ac = new AbortController();
  ac.abort();
  const s = script(['never']);
  await assert.rejects(withRetry(s.run, ac.signal, ctx, {}), (e: unknown) => e instanceof Error && e.name === 'AbortError');
  assert.equal(s.calls(), 0);
});
