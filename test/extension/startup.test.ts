import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startupActions, stillLocked, type ListedRun } from '../../src/extension/logic/startup';

const run = (runId: string, phase: string, o: Partial<ListedRun> & { pending?: { kind: string }[]; turns?: number } = {}): ListedRun => ({
  runId,
  locked: o.locked ?? false,
  state: { task: 't', phase, turns: o.turns ?? 4, ...(o.pending ? { pending: o.pending } : {}) },
});

test('a paused run with a question is asked again; other interrupted runs are offered; done runs get nothing', () => {
  const actions = startupActions([
    run('a', 'paused', { pending: [{ kind: 'approval' }] }),
    run('b', 'tools', { turns: 8 }),
    run('c', 'model', { turns: 0 }),
    run('d', 'done'),
    run('e', 'paused', { pending: [{ kind: 'ladder' }] }),
  ]);
  assert.deepEqual(actions, [
    { kind: 'ask-again', runId: 'a', task: 't' },
    { kind: 'offer', runId: 'b', task: 't', turn: 8 },
    { kind: 'offer', runId: 'c', task: 't', turn: 0 },
    { kind: 'ask-again', runId: 'e', task: 't' },
  ]);
});

test('a paused run without a saved question is offered, not opened', () => {
  assert.deepEqual(startupActions([run('a', 'paused', { pending: [] })]), [{ kind: 'offer', runId: 'a', task: 't', turn: 4 }]);
});

test('a locked run is reported as open elsewhere, whatever its phase; runs active here and unreadable ones are skipped', () => {
  const unreadable: ListedRun = { runId: 'x', locked: false };
  const actions = startupActions([run('a', 'paused', { locked: true, pending: [{ kind: 'approval' }] }), run('b', 'tools'), unreadable], new Set(['b']));
  assert.deepEqual(actions, [{ kind: 'open-elsewhere', runId: 'a' }]);
});

test('stillLocked: false as soon as the lock is released, true when it never is', async () => {
  const slept: number[] = [];
  const sleep = async (ms: number): Promise<void> => void slept.push(ms);
  let checks = 0;
  assert.equal(await stillLocked(async () => ++checks < 3, { attempts: 10, delayMs: 50, sleep }), false);
  assert.equal(checks, 3);
  assert.deepEqual(slept, [50, 50]);
  slept.length = 0;
  assert.equal(await stillLocked(async () => true, { attempts: 4, delayMs: 10, sleep }), true);
  assert.deepEqual(slept, [10, 10, 10]);
});
