import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { DENIED } from '../../src/agent/loop';
import { readRun } from '../../src/store/files/checkpoint';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import type { ApprovalAnswer, ApprovalRequest } from '../../src/agent/approver';
import { reply, ScriptModel, Service, approvalTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

function world() {
  const svc = new Service();
  const model = new ScriptModel([reply(0, [['file', { note: 'x' }]]), reply(1, [['file', { note: 'y' }]]), reply(2, [], 'done')]);
  const person = new Person(svc);
  const parts = (): RunParts => ({ model, tools: toolSet([approvalTool(svc)]), approver: person });
  return { svc, model, person, parts };
}

test('approval "later" pauses with the question saved; a resume asks again without a second entry; deny is an error result', async (t) => {
  const dir = tempDir(t);
  const w = world();
  w.person.answer = 'later';
  const points: string[] = [];
  const r1 = await startRun({
    runStore: openStore(dir),
    state: freshState('a1', dir),
    parts: w.parts,
    onEvent: (e) => e.type === 'saved' && points.push(e.point),
  });
  assert.equal(r1.phase, 'paused');
  assert.equal(points.at(-1), SavePoint.PausedOrDone);
  assert.equal(w.person.lastApproval?.title, 'File x', "the request carries the tool's describe()");
  assert.equal(w.person.lastApproval?.args, '{"note":"x"}');
  let saved = await readRun(dir, 'a1');
  assert.equal(saved.phase, 'paused');
  assert.deepEqual(
    saved.pending?.map((p) => [p.kind, p.callId, p.tool]),
    [['approval', 'c0_0', 'file']],
  );
  assert.equal(saved.attempts, undefined, 'no marker before the yes');
  const askedAt = saved.pending?.[0].askedAt;

  const r2 = await resumeRun({ runStore: openStore(dir), runId: 'a1', parts: w.parts });
  assert.equal(r2.phase, 'paused');
  assert.equal(w.person.approvals, 2, 'asked again on resume');
  saved = await readRun(dir, 'a1');
  assert.equal(saved.pending?.length, 1, 'no duplicate pending entry');
  assert.equal(saved.pending?.[0].askedAt, askedAt);
  assert.equal(w.svc.effects, 0);

  const answers: ApprovalAnswer[] = ['approve', 'deny'];
  const seen: ApprovalRequest[] = [];
  w.person.approve = async (req) => (seen.push(req), answers.shift()!);
  const r3 = await resumeRun({ runStore: openStore(dir), runId: 'a1', parts: w.parts });
  assert.equal(r3.phase, 'done');
  assert.deepEqual(
    seen.map((q) => q.callId),
    ['c0_0', 'c1_0'],
  );
  assert.equal(w.svc.effects, 1);
  assert.deepEqual(
    w.svc.records.map((r) => r.note),
    ['x'],
  );
  const denied = r3.messages[4];
  assert.ok(denied.role === 'tool');
  assert.deepEqual(denied.results, [{ callId: 'c1_0', content: DENIED, isError: true }]);
  assert.equal(r3.pending, undefined);
  assert.deepEqual(w.model.requests, [1, 1, 1]);
});

test('a crash while the person decides leaves nothing to resolve: the approval is asked again, no ladder question', async (t) => {
  const dir = tempDir(t);
  const w = world();
  const approve = w.person.approve.bind(w.person);
  let crashOnce = true;
  w.person.approve = async (req) => {
    if (crashOnce) {
      crashOnce = false;
      throw new SimulatedCrash('deciding');
    }
    return approve(req);
  };
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('a2', dir), parts: w.parts }), SimulatedCrash);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'a2', parts: w.parts });
  assert.equal(r.phase, 'done');
  assert.equal(w.person.approvals, 2, 'one approval lost to the crash, each call approved once after');
  assert.equal(w.person.questions, 0);
  assert.equal(w.svc.effects, 2);
});

test('the marker is saved after the yes and carries the key', async (t) => {
  const dir = tempDir(t);
  const w = world();
  const order: string[] = [];
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('a3', dir),
      parts: w.parts,
      onEvent: (e) => {
        if (e.type === 'approval') order.push(`approval:${e.answer}`);
        if (e.type === 'saved') order.push(e.point);
      },
      crash: (p) => {
        if (p === SavePoint.AttemptMarked) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  assert.deepEqual(order, [SavePoint.RunStarted, SavePoint.ReplyArrived, SavePoint.PausedOrDone, 'approval:approve', SavePoint.AttemptMarked]);
  const s = await readRun(dir, 'a3');
  assert.equal(s.pending, undefined, 'the answered question left with the marker save');
  assert.equal(s.phase, 'tools');
  assert.match(s.attempts?.['c0_0']?.key ?? '', /^[0-9a-f]{32}$/);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'a3', parts: w.parts });
  assert.equal(r.phase, 'done');
  assert.equal(w.person.approvals, 2, 'the marked call is not asked about again (its key reruns it)');
  assert.equal(w.svc.effects, 2);
});
