import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitsFromFlags } from '../../src/cli/limit-flags';
import { USAGE } from '../../src/cli/usage';
import { DEFAULT_LIMITS, withDefaultLimits } from '../../src/agent/budget';
import { BadInputError } from '../../src/core/errors';
import { triage } from './support';

test('no limit flag: the job applies the default turns and dollars, said in the usage', () => {
  assert.deepEqual(limitsFromFlags({}), {});
  assert.deepEqual(withDefaultLimits(limitsFromFlags({})), { maxTurns: 100, maxDollars: 5 });
  assert.deepEqual(DEFAULT_LIMITS, { maxTurns: 100, maxDollars: 5 });
  assert.match(USAGE, /Default --max-turns 100 and --max-dollars 5 /);
  assert.match(USAGE, /triage worker [^\n]*\n[^\n]*--max-turns N/);
});

test('flags raise the limits, "none" lifts one, anything else is bad input', () => {
  const l = limitsFromFlags({ 'max-turns': '400', 'max-dollars': 'none', 'max-tokens': '2000000', 'max-restarts': '3' });
  assert.deepEqual(l, { maxTurns: 400, maxDollars: Infinity, maxTokens: 2000000, maxRestarts: 3 });
  assert.deepEqual(withDefaultLimits(l), l, 'given limits stand');
  for (const bad of ['-1', 'lots', '', 'Infinity'])
    assert.throws(
      () => limitsFromFlags({ 'max-dollars': bad }),
      (e: unknown) => e instanceof BadInputError && /--max-dollars/.test(e.message),
      bad,
    );
});

test('triage worker takes the limit flags (a bad one is bad input before any store is contacted)', () => {
  const r = triage(['worker', '--store', 'postgres://nobody@127.0.0.1:9/none', '--max-turns', 'lots']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--max-turns must be a non-negative number/);
});
