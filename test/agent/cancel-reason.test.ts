// A run stopped by its window closing keeps that reason wherever the loop notices the abort:
// a tool that fails because of it, or the check before the next step (found in the issue #23 walk:
// a reload right after an approval was shown as "Stopped: cancelled").
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startRun, type RunParts } from '../../src/agent/runner';
import { toolSet, type Tool } from '../../src/agent/tool';
import { CancelledError } from '../../src/core/errors';
import { openStore } from '../../src/store/open-store';
import { reply, ScriptModel, Service, keyedTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';

function twoCalls(): ScriptModel {
  return new ScriptModel([
    reply(0, [
      ['keyed', { note: 'a' }],
      ['keyed', { note: 'b' }],
    ]),
    reply(1, [], 'done'),
  ]);
}

async function stopReason(t: TestContext, failTool: boolean): Promise<unknown> {
  const dir = tempDir(t);
  const ac = new AbortController();
  const svc = new Service();
  const closing: Tool<{ note: string }> = {
    ...keyedTool(svc),
    async run(args, ctx) {
      ac.abort(new CancelledError('r1', 'window-closed'));
      if (failTool) throw new Error('the connection went away');
      return { content: `created #${svc.create(String(args.note), ctx.key)}` };
    },
  };
  const parts = (): RunParts => ({ model: twoCalls(), tools: toolSet([closing]), approver: new Person(svc) });
  return startRun({ runStore: openStore(dir), state: freshState('r1', dir), parts, signal: ac.signal }).then(
    () => assert.fail('the run should stop'),
    (e: unknown) => e,
  );
}

test('a tool failing because the window closed: the stop says window-closed, not a Cancel', async (t) => {
  const e = await stopReason(t, true);
  assert.ok(e instanceof CancelledError, String(e));
  assert.equal(e.why, 'window-closed');
});

test('the window closed while a tool ran: the check before the next call keeps window-closed', async (t) => {
  const e = await stopReason(t, false);
  assert.ok(e instanceof CancelledError, String(e));
  assert.equal(e.why, 'window-closed');
});
