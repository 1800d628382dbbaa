import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { readRun } from '../../src/store/files/checkpoint';
import { RunExistsError } from '../../src/core/errors';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { reply, ScriptModel, readTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

test('the lock is released whatever stops the run: a failing parts(), a crash (with nothing more saved)', async (t) => {
  const dir = tempDir(t);
  const model = new ScriptModel([reply(0, [['read', { path: 'a' }]]), reply(1, [], 'done')]);
  const parts = (): RunParts => ({ model, tools: toolSet([readTool()]), approver: new Person() });
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('u1', dir),
      parts: () => {
        throw new Error('no API key');
      },
    }),
    /no API key/,
  );
  await assert.rejects(
    resumeRun({
      runStore: openStore(dir),
      runId: 'u1',
      parts,
      crash: (p) => {
        if (p === SavePoint.ReplyArrived) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  const s = await readRun(dir, 'u1');
  assert.equal(s.phase, 'tools', 'the crash saved nothing after the reply');
  assert.equal(s.results, undefined);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'u1', parts });
  assert.equal(r.phase, 'done');
  assert.equal(r.restarts, 2);
});

test('opened() gets every open run, parts() only an unfinished one; a run ID is never created twice', async (t) => {
  const dir = tempDir(t);
  const model = new ScriptModel([reply(0, [], 'done')]);
  const seen: string[] = [];
  const opened = (state: { runId: string; phase: string }, handle: { runId: string }): void => {
    seen.push(`opened ${state.runId}/${state.phase}/${handle.runId}`);
  };
  const parts = (state: { runId: string; phase: string }, handle: { runId: string }): RunParts => {
    seen.push(`parts ${state.runId}/${state.phase}/${handle.runId}`);
    return { model, tools: toolSet([]), approver: new Person() };
  };
  await startRun({ runStore: openStore(dir), state: freshState('u2', dir), opened, parts });
  const again = await resumeRun({ runStore: openStore(dir), runId: 'u2', opened, parts });
  assert.equal(again.answer, 'done', 'a finished run returns its saved answer');
  assert.deepEqual(seen, ['opened u2/model/u2', 'parts u2/model/u2', 'opened u2/done/u2'], 'nothing is built for a finished run');
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('u2', dir), parts }), RunExistsError);
  assert.deepEqual(model.requests, [1]);
});
