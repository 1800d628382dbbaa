import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idempotencyKey, newRunId } from '../../src/agent/idempotency-key';

// Expected values computed independently with Python's hashlib (see the chapter's Key()).
const VECTORS: [string, string, string][] = [
  ['run-1', 'call_1', 'ba09e991b6ea3f35e4d62b6164c4a689'],
  ['', '', '390feabc786e369e55b904251d643b52'],
  ['m1-done-after-delete-20261202T120000Z-abcd1234', 'toolu_01A', 'd7a2353aa23f1337ccf45f208bf0582a'],
  ['ünï', 'c', '9328f591007dcded5301118993ebba1e'],
  ['ab', 'c', '430fb1b4ac43316eca81fab27a1930ab'],
  ['a', 'bc', '5310a58788781ab25d5ad7c3f8503582'],
  ['', 'x', '6d6d0ffa8fe1fcf741ef439fdeb5af86'],
  ['日本語-run', 'call_😀', '3643b9c2f58538c2579810f5a9f80585'],
];

test('idempotency key test vectors', () => {
  for (const [run, call, want] of VECTORS) assert.equal(idempotencyKey(run, call), want, `${run}/${call}`);
});

test('length prefixes keep ("ab","c") and ("a","bc") apart', () => {
  assert.notEqual(idempotencyKey('ab', 'c'), idempotencyKey('a', 'bc'));
});

test('run IDs: task, UTC time, 8 random characters; never the same twice', () => {
  const id = newRunId('m1-done-after-delete', new Date('2026-12-02T12:34:56.789Z'));
  assert.match(id, /^m1-done-after-delete-20261202T123456Z-[a-z0-9]{8}$/);
  const ids = new Set(Array.from({ length: 2000 }, () => newRunId('t', new Date(0))));
  assert.equal(ids.size, 2000);
});
