import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryAfterMs, providerMessage } from '../../src/model/sdk';

test('retry-after: milliseconds header first, then seconds, then an HTTP date', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '300', 'retry-after': '9' })), 300);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '9' })), 9000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '1.5' })), 1500);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(
    retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), () => now),
    30_000,
  );
  assert.equal(
    retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), () => now),
    0,
  );
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
