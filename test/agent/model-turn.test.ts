import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet, type Tool } from '../../src/agent/tool';
import type { ContextPolicy } from '../../src/agent/loop';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { uniqueCallIds, usedCallIds } from '../../src/agent/call-ids';
import { readRun } from '../../src/store/files/checkpoint';
import { CancelledError, ModelError } from '../../src/core/errors';
import type { ModelProvider } from '../../src/model/provider';
import { PriceTable } from '../../src/model/prices';
import { reply, ScriptModel, Service, keyedTool, readTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

test('the context policy summary is sent instead of the older messages and saved with the reply', async (t) => {
  const dir = tempDir(t);
  const model = new ScriptModel([reply(0, [['read', { path: 'a' }]]), reply(1, [], 'done')]);
  const policy: ContextPolicy = {
    async prepare(state) {
      return state.messages.length > 2 ? { text: 'read a', covers: 2 } : undefined;
    },
  };
  const parts = (): RunParts => ({ model, tools: toolSet([readTool()]), approver: new Person(), contextPolicy: policy });
  const r = await startRun({ runStore: openStore(dir), state: freshState('m1', dir), parts });
  assert.equal(r.phase, 'done');
  assert.deepEqual(model.lastRequest?.summary, { text: 'read a', covers: 2 });
  assert.deepEqual(
    model.lastRequest?.messages.map((m) => m.role),
    ['tool'],
  );
  assert.equal(model.lastRequest?.system, 'sys');
  assert.deepEqual(
    model.lastRequest?.tools.map((t) => t.name),
    ['read'],
  );
  assert.deepEqual((await readRun(dir, 'm1')).summary, { text: 'read a', covers: 2 });
});

test('notes in the inbox reach the model as one user message before the next call', async (t) => {
  const dir = tempDir(t);
  const model = new ScriptModel([reply(0, [], 'done')]);
  const state = freshState('m2', dir);
  state.inbox = ['f.txt changed', 'g.txt was deleted'];
  const r = await startRun({ runStore: openStore(dir), state, parts: () => ({ model, tools: toolSet([]), approver: new Person() }) });
  assert.deepEqual(model.lastRequest?.messages.at(-1), { role: 'user', content: 'f.txt changed\n\ng.txt was deleted' });
  assert.equal((await readRun(dir, 'm2')).inbox, undefined);
  assert.equal(r.messages.length, 3);
});

test('call IDs repeated across replies are renamed before the save, so every call gets its own key', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const same = (turn: number, note: string) => ({
    ...reply(turn, [['keyed', { note }]]),
    calls: [{ id: 'call_0', name: 'keyed', args: JSON.stringify({ note }) }],
  });
  const model = new ScriptModel([same(0, 'a'), same(1, 'b'), reply(2, [], 'done')]);
  const r = await startRun({
    runStore: openStore(dir),
    state: freshState('m3', dir),
    parts: () => ({ model, tools: toolSet([keyedTool(svc)]), approver: new Person() }),
  });
  assert.equal(r.phase, 'done');
  assert.equal(svc.effects, 2, 'the second call is not mistaken for a repeat of the first');
  assert.deepEqual(
    svc.requests.map((q) => q.key),
    [idempotencyKey('m3', 'call_0'), idempotencyKey('m3', 'call_0_t1_0')],
  );
  const ids = r.messages.flatMap((m) => (m.role === 'tool' ? m.results.map((x) => x.callId) : []));
  assert.deepEqual(ids, ['call_0', 'call_0_t1_0']);
});

test('uniqueCallIds keeps fresh IDs and renames empty, used and repeated ones', () => {
  const used = usedCallIds([
    { role: 'assistant', calls: [{ id: 'a', name: 't', args: '{}' }] },
    { role: 'tool', results: [{ callId: 'a', content: '' }] },
  ]);
  assert.deepEqual([...used], ['a']);
  used.add('a_t3_0');
  const out = uniqueCallIds(
    [
      { id: 'a', name: 't', args: '{}' },
      { id: '', name: 't', args: '{}' },
      { id: 'b', name: 't', args: '{}' },
      { id: 'b', name: 't', args: '{}' },
    ],
    used,
    3,
  );
  assert.deepEqual(
    out.map((c) => c.id),
    ['a_t3_0_2', 'call_t3_1', 'b', 'b_t3_3'],
  );
});

test('a cancelled model call throws CancelledError with the run still in phase model; the resume makes the call', async (t) => {
  const dir = tempDir(t);
  const ac = new AbortController();
  const script = new ScriptModel([reply(0, [], 'done')]);
  const hanging: ModelProvider = {
    provider: 'scripted',
    model: 'scripted',
    prices: new PriceTable(),
    complete: (_req, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
        ac.abort();
      }),
  };
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('m4', dir),
      signal: ac.signal,
      parts: () => ({ model: hanging, tools: toolSet([]), approver: new Person() }),
    }),
    CancelledError,
  );
  const s = await readRun(dir, 'm4');
  assert.equal(s.phase, 'model');
  assert.equal(s.turns, 0);
  const r = await resumeRun({ runStore: openStore(dir), runId: 'm4', parts: () => ({ model: script, tools: toolSet([]), approver: new Person() }) });
  assert.equal(r.answer, 'done');
  assert.deepEqual(script.requests, [1]);
});

test("the model's own error stops the run as it is, and the run resumes from the same call", async (t) => {
  const dir = tempDir(t);
  const failing: ModelProvider = {
    provider: 'x',
    model: 'x',
    prices: new PriceTable(),
    complete: async () => {
      throw new ModelError('HTTP 401: check your API key.');
    },
  };
  await assert.rejects(
    startRun({ runStore: openStore(dir), state: freshState('m5', dir), parts: () => ({ model: failing, tools: toolSet([]), approver: new Person() }) }),
    ModelError,
  );
  assert.equal((await readRun(dir, 'm5')).phase, 'model');
});

test('a tool that throws gives an error result the model reads, and the run goes on', async (t) => {
  const dir = tempDir(t);
  const broken: Tool = {
    ...readTool(),
    async run() {
      throw new Error('disk on fire');
    },
  };
  const model = new ScriptModel([reply(0, [['read', { path: 'a' }]]), reply(1, [], 'done')]);
  const r = await startRun({
    runStore: openStore(dir),
    state: freshState('m6', dir),
    parts: () => ({ model, tools: toolSet([broken]), approver: new Person() }),
  });
  assert.equal(r.phase, 'done');
  const m = r.messages[2];
  assert.ok(m.role === 'tool');
  assert.deepEqual(m.results, [{ callId: 'c0_0', content: 'read failed: disk on fire', isError: true }]);
});
