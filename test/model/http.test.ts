import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSse, retryAfterMs, providerMessage, withAttemptTimeout, AttemptTimeoutError, TransientError, type SseEvent } from '../../src/model/http';

function streamOf(chunks: string[], fail?: Error): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) c.enqueue(enc.encode(chunks[i++]));
      else if (fail) c.error(fail);
      else c.close();
    },
  });
}

async function collect(chunks: string[], fail?: Error): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(streamOf(chunks, fail), new AbortController().signal, () => {})) out.push(e);
  return out;
}

test('SSE: events split anywhere across chunks, CRLF and CR line ends, comments, multi-line data', async () => {
  const events = await collect(['event: a\r', '\ndata: {"x"', ':1}\r\n\r\n: a comment\n\nda', 'ta: line1\ndata: line2\n\nevent: b\rdata: 2\r\r', 'data: [DONE]']);
  assert.deepEqual(events, [
    { event: 'a', data: '{"x":1}' },
    { event: 'message', data: 'line1\nline2' },
    { event: 'b', data: '2' },
    { event: 'message', data: '[DONE]' },
  ]);
});

test('SSE: multi-byte characters split between chunks decode whole', async () => {
  const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
  const cut = 9; // inside "é"
  const s = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes.slice(0, cut));
      c.enqueue(bytes.slice(cut));
      c.close();
    },
  });
  const out: SseEvent[] = [];
  for await (const e of readSse(s, new AbortController().signal, () => {})) out.push(e);
  assert.deepEqual(out, [{ event: 'message', data: 'héllo ✓' }]);
});

test('SSE: a read that fails becomes a TransientError (the connection dropped)', async () => {
  await assert.rejects(collect(['data: 1\n\n'], new Error('other side closed')), (e: unknown) => e instanceof TransientError && /dropped mid-reply/.test(e.message));
});

test('retry-after: milliseconds header first, then seconds, then an HTTP date', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '300', 'retry-after': '9' })), 300);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '9' })), 9000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '1.5' })), 1500);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), () => now), 30_000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), () => now), 0);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
  assert.equal(retryAfterMs(new Headers()), undefined);
});

test('provider error messages: {error:{message}}, {error: string}, {message}, plain text', () => {
  assert.equal(providerMessage('{"type":"error","error":{"type":"x","message":"bad key"}}'), 'bad key');
  assert.equal(providerMessage('{"error":"model not found"}'), 'model not found');
  assert.equal(providerMessage('{"message":"nope"}'), 'nope');
  assert.equal(providerMessage('<html>Bad Gateway</html>'), '<html>Bad Gateway</html>');
  assert.equal(providerMessage('', 'Service Unavailable'), 'Service Unavailable');
});

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
