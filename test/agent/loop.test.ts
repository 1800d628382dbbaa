import { z } from 'zod';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet, type Tool } from '../../src/agent/tool';
import { readRun } from '../../src/store/files/checkpoint';
import { BudgetExceededError, CancelledError, LockCompromisedError, MaxResumesError, WorkspaceChangedError } from '../../src/core/errors';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { reply, ScriptModel, Service, keyedTool, readTool, Person, freshState, bareTool } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

function world(
  script = [
    reply(0, [
      ['read', { path: 'a' }],
      ['keyed', { note: 'n1' }],
    ]),
    reply(1, [], 'all done'),
  ],
) {
  const svc = new Service();
  const model = new ScriptModel(script);
  const person = new Person(svc);
  const read = readTool();
  const tools: Tool[] = [read, keyedTool(svc)];
  const parts = (): RunParts => ({ model, tools: toolSet(tools), approver: person });
  return { svc, model, person, read, tools, parts };
}

test('a run goes model -> tools -> model -> done, saving at the named points', async (t) => {
  const dir = tempDir(t);
  const w = world();
  const points: string[] = [];
  const r = await startRun({
    runStore: openStore(dir),
    state: freshState('r1', dir),
    parts: w.parts,
    onEvent: (e) => e.type === 'saved' && points.push(e.point),
  });
  assert.equal(r.phase, 'done');
  assert.equal(r.answer, 'all done');
  assert.equal(r.turns, 2);
  assert.deepEqual(points, [
    SavePoint.RunStarted,
    SavePoint.ReplyArrived,
    SavePoint.ResultSaved,
    SavePoint.AttemptMarked,
    SavePoint.ResultSaved,
    SavePoint.PausedOrDone,
  ]);
  assert.equal(w.svc.effects, 1);
  const s = await readRun(dir, 'r1');
  assert.equal(s.messages.length, 4);
  assert.equal(s.usage.inputTokens, 2000);
  assert.equal(s.results, undefined);
});

test('resume by phase: done costs nothing; tools runs only the unanswered calls', async (t) => {
  const dir = tempDir(t);
  const w = world();
  let n = 0;
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('r2', dir),
      parts: w.parts,
      crash: (p) => {
        if (p === SavePoint.ResultSaved && ++n === 1) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  const mid = await readRun(dir, 'r2');
  assert.equal(mid.phase, 'tools');
  assert.ok(mid.results?.['c0_0']);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'r2', parts: w.parts });
  assert.equal(r.phase, 'done');
  assert.equal(w.read.runs, 1, 'the answered read is not run again');
  assert.deepEqual(w.model.requests, [1, 1], 'no reply is paid twice');
  assert.equal(r.restarts, 1);
  const again = await resumeRun({ runStore: openStore(dir), runId: 'r2', parts: w.parts });
  assert.equal(again.answer, 'all done');
  assert.equal(w.model.total, 2, 'a done run makes no model call');
  assert.equal(again.restarts, 1);
});

test('a model-phase resume makes the call it was about to make', async (t) => {
  const dir = tempDir(t);
  const w = world();
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('r3', dir),
      parts: w.parts,
      crash: (p) => {
        if (p === SavePoint.RunStarted) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  assert.equal((await readRun(dir, 'r3')).phase, 'model');
  assert.equal(w.model.total, 0);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'r3', parts: w.parts });
  assert.equal(r.phase, 'done');
  assert.deepEqual(w.model.requests, [1, 1]);
});

test('budgets cover the whole life of a run', async (t) => {
  const dir = tempDir(t);
  const script = [reply(0, [['read', { path: 'a' }]]), reply(1, [['read', { path: 'b' }]]), reply(2, [], 'done')];
  const w = world(script);
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('r4', dir), parts: w.parts, limits: { maxTurns: 1 } }), BudgetExceededError);
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r4', parts: w.parts, limits: { maxTurns: 1 } }),
    (e: unknown) => e instanceof BudgetExceededError && e.used === 1,
  );
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r4', parts: w.parts, limits: { maxDollars: 0.015 } }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars',
  );
  const r = await resumeRun({ runStore: openStore(dir), runId: 'r4', parts: w.parts, limits: { maxTurns: 3 } });
  assert.equal(r.phase, 'done');
  assert.equal(r.turns, 3);
});

test('the restart limit stops the run with MaxResumesError, counted before anything else', async (t) => {
  const dir = tempDir(t);
  const w = world();
  const dieAtStart = (p: string): void => {
    if (p === SavePoint.RunStarted) throw new SimulatedCrash(p);
  };
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('r5', dir), parts: w.parts, crash: dieAtStart }), SimulatedCrash);
  for (let i = 0; i < 3; i++)
    await assert.rejects(resumeRun({ runStore: openStore(dir), runId: 'r5', parts: w.parts, crash: dieAtStart, limits: { maxRestarts: 3 } }), SimulatedCrash);
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r5', parts: w.parts, limits: { maxRestarts: 3 } }),
    (e: unknown) => e instanceof MaxResumesError && e.restarts === 4,
  );
  assert.equal(w.model.total, 0);
});

test('invalid JSON arguments become an error result and the run goes on', async (t) => {
  const dir = tempDir(t);
  const w = world([
    reply(0, [
      ['read', '{"path": "a.js"'],
      ['nope', {}],
      ['read', { path: 3 }],
    ]),
    reply(1, [], 'ok'),
  ]);
  const r = await startRun({ runStore: openStore(dir), state: freshState('r6', dir), parts: w.parts });
  assert.equal(r.phase, 'done');
  const results = (r.messages[2] as { results: { content: string; isError?: boolean }[] }).results;
  assert.match(results[0].content, /Invalid arguments for read: .*JSON/);
  assert.match(results[1].content, /Unknown tool "nope"/);
  assert.match(results[2].content, /"path" should be a string/);
  assert.ok(results.every((x) => x.isError));
  assert.equal(w.read.runs, 0);
  const saved = await readRun(dir, 'r6');
  assert.equal(saved.messages[1].role === 'assistant' && saved.messages[1].calls?.[0].args, '{"path": "a.js"');
});

test('cancellation saves where the run stopped and throws CancelledError; the run resumes', async (t) => {
  const dir = tempDir(t);
  const ac = new AbortController();
  const svc = new Service();
  const slow: Tool<{ note: string }> = {
    ...keyedTool(svc),
    async run(args, ctx) {
      ac.abort();
      return { content: `created #${svc.create(String(args.note), ctx.key)}` };
    },
  };
  const model = new ScriptModel([
    reply(0, [
      ['keyed', { note: 'a' }],
      ['keyed', { note: 'b' }],
    ]),
    reply(1, [], 'done'),
  ]);
  const parts = (): RunParts => ({ model, tools: toolSet([slow]), approver: new Person(svc) });
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('r8', dir), parts, signal: ac.signal }), CancelledError);
  const s = await readRun(dir, 'r8');
  assert.equal(s.phase, 'tools');
  assert.ok(s.results?.['c0_0'], 'the result that arrived during the shutdown was saved');
  const parts2 = (): RunParts => ({ model, tools: toolSet([keyedTool(svc)]), approver: new Person(svc) });
  const r = await resumeRun({ runStore: openStore(dir), runId: 'r8', parts: parts2 });
  assert.equal(r.phase, 'done');
  assert.equal(svc.effects, 2);
});

test('a lost lock stops the run before the next side effect', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const model = new ScriptModel([
    reply(0, [
      ['read', { path: 'a' }],
      ['bare', { note: 'a' }],
    ]),
    reply(1, [], 'done'),
  ]);
  const read = readTool();
  let lost!: () => void;
  const compromised = new Promise<void>((resolve) => (lost = resolve));
  const sneaky: Tool = {
    ...read,
    async run(args, ctx) {
      // The lock directory vanishes (e.g. removed by a reclaimer after a long sleep); wait until the refresh notices.
      fs.rmSync(`${dir}/runs/r9.json.lock`, { recursive: true, force: true });
      const keepAlive = setInterval(() => undefined, 100); // the lock's refresh timer is unref'd
      await compromised.finally(() => clearInterval(keepAlive));
      return read.run(args as { path: string }, ctx);
    },
  };
  const parts = (): RunParts => ({ model, tools: toolSet([sneaky, bareTool(svc)]), approver: new Person(svc) });
  await assert.rejects(
    startRun({ runStore: openStore(dir), state: freshState('r9', dir), parts, store: { staleMs: 2000, onCompromised: () => lost() } }),
    LockCompromisedError,
  );
  assert.equal(svc.effects, 0, 'the bare call after the read never ran');
  const s = await readRun(dir, 'r9');
  assert.equal(s.phase, 'tools');
  assert.equal(s.results, undefined, 'nothing was saved without the lock');
});

test('a file the run wrote, edited behind its back, stops the resume with WorkspaceChangedError', async (t) => {
  const dir = tempDir(t);
  const writer: Tool<{ path: string }> = {
    name: 'write',
    description: 'writes',
    args: z.object({ path: z.string() }),
    idempotent: true,
    async run(args, ctx) {
      fs.writeFileSync(`${ctx.workspace}/${String(args.path)}`, 'agent');
      await ctx.recordWrite(String(args.path), Buffer.from('agent'));
      return { content: 'wrote' };
    },
  };
  const model = new ScriptModel([reply(0, [['write', { path: 'f.txt' }]]), reply(1, [], 'done')]);
  const parts = (): RunParts => ({ model, tools: toolSet([writer]), approver: new Person() });
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('r10', dir),
      parts,
      crash: (p) => {
        if (p === SavePoint.ResultSaved) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  fs.writeFileSync(`${dir}/f.txt`, 'human');
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r10', parts }),
    (e: unknown) => e instanceof WorkspaceChangedError && e.changes[0].path === 'f.txt' && e.changes[0].actual !== null,
  );
  fs.rmSync(`${dir}/f.txt`);
  await assert.rejects(
    resumeRun({ runStore: openStore(dir), runId: 'r10', parts }),
    (e: unknown) => e instanceof WorkspaceChangedError && e.changes[0].actual === null,
  );
  assert.equal(model.total, 1);
});
