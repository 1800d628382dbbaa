import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as util from 'node:util';
import { isProcessDeath, PROCESS_DEATH } from '../../src/core/process-death';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { LockCompromisedError } from '../../src/core/errors';

test("the sweep's SimulatedCrash is a process death; nothing else is", () => {
  assert.equal(isProcessDeath(new SimulatedCrash('write:renamed')), true);
  for (const other of [
    new Error('simulated crash at write:renamed'),
    new LockCompromisedError('r1', 'gone'),
    undefined,
    null,
    'SimulatedCrash',
    42,
    { name: 'SimulatedCrash' },
    { [PROCESS_DEATH]: 'yes' },
  ]) {
    assert.equal(isProcessDeath(other), false, util.inspect(other));
  }
});

test('a process death from another copy of the module is recognised (the brand is a registered symbol)', () => {
  assert.equal(isProcessDeath({ [Symbol.for('durable-triage.process-death')]: true }), true);
});

test('SimulatedCrash keeps its name, message and point, and carries no own brand property', () => {
  const e = new SimulatedCrash('tool:acted');
  assert.equal(e.name, 'SimulatedCrash');
  assert.equal(e.message, 'simulated crash at tool:acted');
  assert.equal(e.point, 'tool:acted');
  assert.ok(e instanceof Error);
  assert.deepEqual(Object.getOwnPropertySymbols(e), []);
});
