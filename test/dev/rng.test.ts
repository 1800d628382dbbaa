/**
 * tools/rng.ts, the one seeded generator: the numbers each of the three copies it replaced gave
 * (the authored recordings', the benchmark's, kill-anywhere's), so recordings and benchmark runs stay as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../tools/rng';

const first = (r: Rng, n: number): number[] => Array.from({ length: n }, () => r.next());

test('a string seed gives what the authoring generator gave', () => {
  assert.deepEqual(first(new Rng('author:crash-groups'), 4), [0.7900720867328346, 0.6289785755798221, 0.9258933304809034, 0.6379883103072643]);
});

test("a number seed gives what kill-anywhere's and the benchmark's generators gave", () => {
  assert.deepEqual(first(new Rng(20261203), 4), [0.20602223579771817, 0.9349047744181007, 0.4197239582426846, 0.051410515094175935]);
  assert.deepEqual(first(new Rng(7), 4), [0.011704753153026104, 0.06195825757458806, 0.97690763277933, 0.6990287057124078]);
});

test('int, pick and base62 stay in range and repeat with the seed', () => {
  const a = new Rng('x');
  const b = new Rng('x');
  for (let i = 0; i < 200; i++) {
    const n = a.int(3, 5);
    assert.ok(n >= 3 && n <= 5 && Number.isInteger(n));
    assert.equal(n, b.int(3, 5));
  }
  assert.equal(a.pick(['p', 'q']), b.pick(['p', 'q']));
  assert.match(a.base62(22), /^[0-9A-Za-z]{22}$/);
});
