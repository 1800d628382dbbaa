import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DEFAULT_DEPS, depsOptionsOf, depsRunOptions, parseDepsChoice } from '../../src/deps/options';
import { BadInputError } from '../../src/core/errors';

test('the choices round-trip through a run’s saved options; a run saved before them gets the defaults', () => {
  const o = { mode: 'reuse', scripts: true, network: 'offline' } as const;
  assert.deepEqual(depsOptionsOf(depsRunOptions(o)), o);
  assert.deepEqual(depsOptionsOf(undefined), DEFAULT_DEPS);
  assert.deepEqual(depsOptionsOf({ pullRequests: 'on' }), DEFAULT_DEPS);
  assert.deepEqual(depsOptionsOf({ depsMode: 'bogus' }), DEFAULT_DEPS, 'a saved value that is not known: the defaults, not a crash');
});

test('parseDepsChoice: defaults; each bad value named with what it may be', () => {
  assert.deepEqual(parseDepsChoice({}), DEFAULT_DEPS);
  assert.deepEqual(parseDepsChoice({ mode: 'off', scripts: true, network: 'allowed' }), { mode: 'off', scripts: true, network: 'allowed' });
  assert.throws(
    () => parseDepsChoice({ mode: 'npm' }),
    (e: unknown) => e instanceof BadInputError && /--deps "npm" is not one of install, copy, reuse, off/.test(e.message),
  );
  assert.throws(
    () => parseDepsChoice({ network: 'never' }),
    (e: unknown) => e instanceof BadInputError && /--deps-network "never" is not one of cache-first, offline, allowed/.test(e.message),
  );
});
