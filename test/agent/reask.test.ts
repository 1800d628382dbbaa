// Reopening a run paused on a saved question is not a restart; a question answered after the
// workspace changed stops the run as a resume would.
import { z } from 'zod';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet, type Tool } from '../../src/agent/tool';
import type { LoopEvent } from '../../src/agent/loop';
import { readRun } from '../../src/store/files/checkpoint';
import { MaxResumesError, WorkspaceChangedError } from '../../src/core/errors';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { reply, ScriptModel, Service, approvalTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

function writeTool(): Tool<{ path: string; text: string }> {
  return {
    name: 'write',
    description: 'writes a file',
    args: z.object({ path: z.string(), text: z.string() }),
    idempotent: true,
    async run(args, ctx) {
      const buf = Buffer.from(String(args.text));
      fs.writeFileSync(path.join(ctx.workspace, String(args.path)), buf);
      await ctx.recordWrite(String(args.path), buf);
      return { content: `wrote ${String(args.path)}` };
    },
  };
}

function world() {
  const svc = new Service();
  const model = new ScriptModel([reply(0, [['write', { path: 'a.txt', text: 'agent' }]]), reply(1, [['file', { note: 'x' }]]), reply(2, [], 'done')]);
  const person = new Person(svc);
  const parts = (): RunParts => ({ model, tools: toolSet([writeTool(), approvalTool(svc)]), approver: person });
  return { svc, model, person, parts };
}

test('a paused run reopened again and again past the restart limit still asks its question, and finishes', async (t) => {
  const dir = tempDir(t);
  const w = world();
  w.person.answer = 'later';
  assert.equal((await startRun({ runStore: openStore(dir), state: freshState('q1', dir), parts: w.parts })).phase, 'paused');
  const events: LoopEvent[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await resumeRun({ runStore: openStore(dir), runId: 'q1', parts: w.parts, limits: { maxRestarts: 2 }, onEvent: (e) => events.push(e) });
    assert.equal(r.phase, 'paused', `reopening ${i + 1} asks again and pauses`);
    assert.equal(r.restarts, 0, 'a reopening that only asks is not a restart');
  }
  assert.equal(w.person.approvals, 6);
  const started = events.filter((e) => e.type === 'started');
  assert.equal(started.length, 5);
  assert.ok(started.every((e) => e.type === 'started' && e.resumed && e.reask && e.nextCall === 'c1_0'));
  w.person.answer = 'approve';
  const done = await resumeRun({ runStore: openStore(dir), runId: 'q1', parts: w.parts, limits: { maxRestarts: 2 } });
  assert.equal(done.phase, 'done');
  assert.equal(done.restarts, 0);
  assert.equal(w.svc.effects, 1);
  assert.deepEqual(w.model.requests, [1, 1, 1], 'no reply paid twice');
});

test('a paused run that crashes after the answer counts that restart, and a crashing run still stops at the limit', async (t) => {
  const dir = tempDir(t);
  const w = world();
  w.person.answer = 'later';
  await startRun({ runStore: openStore(dir), state: freshState('q2', dir), parts: w.parts });
  w.person.answer = 'approve';
  const dieAtMarker = (p: string): void => {
    if (p === SavePoint.AttemptMarked) throw new SimulatedCrash(p);
  };
  await assert.rejects(resumeRun({ runStore: openStore(dir), runId: 'q2', parts: w.parts, crash: dieAtMarker, limits: { maxRestarts: 1 } }), SimulatedCrash);
  const s = await readRun(dir, 'q2');
  assert.equal(s.phase, 'tools', 'the yes and the marker are saved');
  assert.equal(s.restarts, 0, 'the reopening to ask was not counted');
  const dieAtStart = (p: string): void => {
    if (p === SavePoint.RunStarted) throw new SimulatedCrash(p);
  };
  await assert.rejects(resumeRun({ runStore: openStore(dir), runId: 'q2', parts: w.parts, crash: dieAtStart, limits: { maxRestarts: 1 } }), SimulatedCrash);
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'q2', parts: w.parts, limits: { maxRestarts: 1 } }),
    (e: unknown) => e instanceof MaxResumesError && e.restarts === 2,
  );
  assert.equal(w.svc.effects, 0);
});

test('a file the run wrote and the person edited while the question was open stops the run before the approved call', async (t) => {
  const dir = tempDir(t);
  const w = world();
  w.person.approve = async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'edited while the question was open');
    return 'approve';
  };
  const events: LoopEvent[] = [];
  await assert.rejects(
    startRun({ runStore: openStore(dir), state: freshState('q3', dir), parts: w.parts, onEvent: (e) => events.push(e) }),
    (e: unknown) => e instanceof WorkspaceChangedError && e.changes.length === 1 && e.changes[0].path === 'a.txt',
  );
  assert.equal(w.svc.effects, 0, 'the approved call did not run');
  const s = await readRun(dir, 'q3');
  assert.equal(s.phase, 'paused');
  assert.deepEqual(
    s.pending?.map((p) => p.callId),
    ['c1_0'],
    'the question stays saved: it is asked again once the files are dealt with',
  );
  assert.ok(!events.some((e) => e.type === 'workspace-verified' && e.after === 'question'));

  // Put the agent's version back: the reopened run asks again, checks again, and files once.
  fs.writeFileSync(path.join(dir, 'a.txt'), 'agent');
  w.person.approve = async () => 'approve';
  const done = await resumeRun({ runStore: openStore(dir), runId: 'q3', parts: w.parts, onEvent: (e) => events.push(e) });
  assert.equal(done.phase, 'done');
  assert.equal(w.svc.effects, 1);
  assert.ok(events.some((e) => e.type === 'workspace-verified' && e.after === 'question' && e.files === 1));
});
