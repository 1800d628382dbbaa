import { z } from 'zod';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { climbLadder, keyStillKept } from '../../src/agent/ladder';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { keyedFor, toolSet, type Tool, type ToolContext } from '../../src/agent/tool';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import type { LoopEvent } from '../../src/agent/loop';
import { readRun } from '../../src/store/files/checkpoint';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { TOOL_ACTED } from '../../src/store/crash-points';
import type { AttemptMarker } from '../../src/store/state';
import type { ToolCall } from '../../src/core/conversation';
import { reply, ScriptModel, Service, keyedTool, lookupTool, bareTool, readTool, Person, freshState, tmp } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

const T0 = '2026-12-02T12:00:00.000Z';
const call: ToolCall = { id: 'c1', name: 'x', args: '{"note":"n"}' };
const marker = (key?: string): AttemptMarker => ({ callId: 'c1', tool: 'x', startedAt: T0, ...(key ? { key } : {}) });
const ctx = (signal = new AbortController().signal): ToolContext => ({ runId: 'r', callId: 'c1', workspace: '/w', signal, recordWrite: async () => undefined });
const base: Tool = { name: 'x', description: '', args: z.object({}), run: async () => ({ content: 'ran' }) };
const at = (ms: number): Date => new Date(Date.parse(T0) + ms);

test('step 1: read-only, idempotent, or a key the service still keeps reruns', async () => {
  for (const t of [
    { ...base, readOnly: true },
    { ...base, idempotent: true },
    { ...base, keyed: keyedFor(1000) },
  ]) {
    assert.deepEqual(await climbLadder(t, call, marker('k'), {}, ctx(), at(999)), { step: 'rerun', action: 'rerun' }, JSON.stringify(t));
  }
});

test('an expired key, or a keyed call sent without a key, counts as no key', async () => {
  const keyed: Tool = { ...base, keyed: keyedFor(1000) };
  const signal = new AbortController().signal;
  assert.equal(await keyStillKept(keyed, marker('k'), at(999), signal), true);
  assert.equal(await keyStillKept(keyed, marker('k'), at(1000), signal), false);
  assert.equal(await keyStillKept(keyed, marker(), at(0), signal), false);
  assert.equal(await keyStillKept(base, marker('k'), at(0), signal), false);
  const expired = await climbLadder(keyed, call, marker('k'), {}, ctx(), at(1000));
  assert.equal(expired.step, 'person');
  assert.match(expired.step === 'person' ? expired.reason : '', /expired/);
  const noKey = await climbLadder(keyed, call, marker(), {}, ctx(), at(0));
  assert.match(noKey.step === 'person' ? noKey.reason : '', /without an idempotency key/);
});

test('step 2: the lookup decides done (its output is the result) or not-done (rerun); an error goes to the person', async () => {
  const done: Tool = { ...base, lookup: async () => ({ status: 'done', output: { content: 'found #7' } }) };
  assert.deepEqual(await climbLadder(done, call, marker(), {}, ctx(), at(0)), { step: 'lookup', action: 'done', output: { content: 'found #7' } });
  const notDone: Tool = { ...base, lookup: async () => ({ status: 'not-done' }) };
  assert.deepEqual(await climbLadder(notDone, call, marker(), {}, ctx(), at(0)), { step: 'lookup', action: 'rerun' });
  const unsure: Tool = {
    ...base,
    lookup: async () => {
      throw new Error('index lags behind');
    },
  };
  const d = await climbLadder(unsure, call, marker(), {}, ctx(), at(0));
  assert.equal(d.step, 'person');
  assert.ok(d.step === 'person' && d.lookupFailed && /index lags behind/.test(d.reason));
  const none = await climbLadder(base, call, marker(), {}, ctx(), at(0));
  assert.ok(none.step === 'person' && !none.lookupFailed && /no lookup/.test(none.reason));
});

test('a lookup interrupted by a crash or a cancellation does not become a question', async () => {
  const crashing: Tool = {
    ...base,
    lookup: async () => {
      throw new SimulatedCrash('lookup');
    },
  };
  await assert.rejects(climbLadder(crashing, call, marker(), {}, ctx(), at(0)), SimulatedCrash);
  const ac = new AbortController();
  const aborted: Tool = {
    ...base,
    lookup: async () => {
      ac.abort();
      throw new Error('aborted');
    },
  };
  await assert.rejects(climbLadder(aborted, call, marker(), {}, ctx(ac.signal), at(0)), /aborted/);
});

/** Runs SCRIPT once with a crash right after the `nth` tool acted, then resumes it to the end. */
async function crashAfterActed(nth: number, tools: (svc: Service) => Tool[], script: ReturnType<typeof reply>[], person?: Person) {
  const dir = tmp();
  const svc = new Service();
  const p = person ?? new Person(svc);
  const model = new ScriptModel(script);
  const parts = (): RunParts => ({ model, tools: toolSet(tools(svc)), approver: p });
  const events: LoopEvent[] = [];
  let acted = 0;
  try {
    await assert.rejects(
      startRun({
        runStore: openStore(dir),
        state: freshState('l1', dir),
        parts,
        crash: (pt) => {
          if (pt === TOOL_ACTED && ++acted === nth) throw new SimulatedCrash(pt);
        },
      }),
      SimulatedCrash,
    );
    const mid = await readRun(dir, 'l1');
    const r = await resumeRun({ runStore: openStore(dir), runId: 'l1', parts, onEvent: (e) => events.push(e) });
    return { svc, person: p, model, events, mid, r, dir };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a keyed call that may have acted is rerun with the SAME key, and the service replays it', async () => {
  const { svc, person, events, mid, r } = await crashAfterActed(1, (s) => [keyedTool(s)], [reply(0, [['keyed', { note: 'k' }]]), reply(1, [], 'done')]);
  const key = idempotencyKey('l1', 'c0_0');
  assert.equal(mid.attempts?.['c0_0']?.key, key);
  assert.deepEqual(svc.requests, [
    { note: 'k', key },
    { note: 'k', key },
  ]);
  assert.equal(svc.effects, 1);
  assert.equal(person.questions, 0);
  assert.ok(events.some((e) => e.type === 'ladder' && e.step === 'rerun' && e.outcome === 'rerun'));
  assert.equal(r.phase, 'done');
});

test('the lookup finds the call done: its output is the result and the call is not run again', async () => {
  const { svc, person, events, r } = await crashAfterActed(1, (s) => [lookupTool(s)], [reply(0, [['looked', { note: 'l' }]]), reply(1, [], 'done')]);
  assert.equal(svc.effects, 1);
  assert.equal(svc.requests.length, 1);
  assert.equal(person.questions, 0);
  assert.ok(events.some((e) => e.type === 'ladder' && e.step === 'lookup' && e.outcome === 'done'));
  const results = r.messages[2];
  assert.ok(results.role === 'tool');
  assert.equal(results.results[0].content, 'created #1');
});

test('the person answers "later" (paused, asked again on resume, one entry), then "done" with what they found', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const person = new Person(svc);
  const model = new ScriptModel([
    reply(0, [
      ['read', { path: 'a' }],
      ['bare', { note: 'b' }],
    ]),
    reply(1, [], 'done'),
  ]);
  const parts = (): RunParts => ({ model, tools: toolSet([readTool(), bareTool(svc)]), approver: person });
  let acted = 0;
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('l2', dir),
      parts,
      crash: (pt) => {
        if (pt === TOOL_ACTED && ++acted === 2) throw new SimulatedCrash(pt);
      },
    }),
    SimulatedCrash,
  );
  const resolve = person.resolve.bind(person);
  person.resolve = async () => (person.questions++, { answer: 'later' });
  const r1 = await resumeRun({ runStore: openStore(dir), runId: 'l2', parts });
  assert.equal(r1.phase, 'paused');
  assert.deepEqual(
    r1.pending?.map((p) => [p.kind, p.callId]),
    [['ladder', 'c0_1']],
  );
  const r2 = await resumeRun({ runStore: openStore(dir), runId: 'l2', parts });
  assert.equal(r2.phase, 'paused');
  assert.equal((await readRun(dir, 'l2')).pending?.length, 1, 'no duplicate pending entry');
  person.resolve = resolve;
  const r3 = await resumeRun({ runStore: openStore(dir), runId: 'l2', parts });
  assert.equal(r3.phase, 'done');
  assert.equal(person.questions, 3);
  assert.match(person.lastQuestion?.reason ?? '', /no idempotency key and it has no lookup/);
  assert.equal(svc.effects, 1);
  const results = r3.messages[2];
  assert.ok(results.role === 'tool');
  assert.deepEqual(results.results[1], { callId: 'c0_1', content: 'created #1 (confirmed by a person)' });
  assert.equal(r3.pending, undefined);
});

test('the person answers "rerun": the call runs again once', async () => {
  const person = new Person();
  person.resolve = async () => (person.questions++, { answer: 'rerun' });
  // A bare call whose first run threw before acting: the crash lands after it, so it has a marker and no record.
  let first = true;
  const flaky = (s: Service): Tool[] => [
    {
      ...bareTool(s),
      async run(a: { note: string }, c) {
        if (first) {
          first = false;
          return { content: 'nothing happened' };
        }
        return bareTool(s).run(a, c);
      },
    },
  ];
  const { svc, r } = await crashAfterActed(1, flaky, [reply(0, [['bare', { note: 'b' }]]), reply(1, [], 'done')], person);
  assert.equal(person.questions, 1);
  assert.equal(svc.effects, 1);
  assert.equal(r.phase, 'done');
});
