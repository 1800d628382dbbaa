import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RecordedModel, loadRecording } from '../../src/model/recorded-provider';
import { RECORDING_VERSION, type Recording } from '../../src/model/recording-format';
import { PriceTable } from '../../src/model/prices';
import type { ModelRequest } from '../../src/model/provider';
import type { Message } from '../../src/core/conversation';
import { BadInputError, RecordingDivergedError } from '../../src/core/errors';
import { tempDir } from '../support/temp-dir';

const SYSTEM = 'You triage crashes.';
const PROMPT = 'Triage crashes/.';

function recording(): Recording {
  return {
    version: RECORDING_VERSION,
    task: 'tiny',
    model: 'claude-sonnet-4-5',
    system: SYSTEM,
    prompt: PROMPT,
    turns: [
      {
        expect: { messages: 1, toolResults: [] },
        reply: {
          text: 'Reading both.',
          calls: [
            { id: 'call_a', name: 'read_file', args: '{"path":"a.js"}' },
            { id: 'call_b', name: 'read_file', args: '{"path":"b.js"}' },
          ],
          usage: { inputTokens: 1200, outputTokens: 80 },
        },
        latencyMs: 2100,
      },
      {
        expect: { messages: 3, toolResults: ['call_a', 'call_b'] },
        reply: { calls: [{ id: 'call_c', name: 'code_patch', args: '{"path":"a.js","patch":"..."}' }], usage: { inputTokens: 2000, outputTokens: 300 } },
        latencyMs: 3200,
      },
      {
        expect: { messages: 5, toolResults: ['call_c'] },
        reply: { text: 'Done: #1.', calls: [], usage: { inputTokens: 2600, outputTokens: 40 } },
      },
    ],
  };
}

const TOOLS: ModelRequest['tools'] = [];
const signal = new AbortController().signal;

/** The conversation a faithful loop sends at each turn. */
function conversation(turn: number): Message[] {
  const m: Message[] = [{ role: 'user', content: PROMPT }];
  if (turn >= 1) {
    m.push({ role: 'assistant', text: 'Reading both.', calls: recording().turns[0].reply.calls });
    m.push({
      role: 'tool',
      results: [
        { callId: 'call_a', content: 'a' },
        { callId: 'call_b', content: 'b' },
      ],
    });
  }
  if (turn >= 2) {
    m.push({ role: 'assistant', calls: recording().turns[1].reply.calls });
    m.push({ role: 'tool', results: [{ callId: 'call_c', content: 'patched a.js' }] });
  }
  return m;
}

function req(turn: number, messages = conversation(turn), system = SYSTEM): ModelRequest {
  return { system, messages, tools: TOOLS, turn };
}

async function diverges(model: RecordedModel, r: ModelRequest, pattern: RegExp): Promise<void> {
  await assert.rejects(model.complete(r, signal), (e: unknown) => {
    assert.ok(e instanceof RecordingDivergedError, `expected RecordingDivergedError, got ${String(e)}`);
    assert.match(e.message, pattern);
    return true;
  });
}

test('replays each turn with its calls, text, usage, and dollars from the price table', async () => {
  const prices = new PriceTable();
  const model = new RecordedModel(recording(), prices);
  assert.equal(model.provider, 'recorded');
  assert.equal(model.model, 'claude-sonnet-4-5');
  const r0 = await model.complete(req(0), signal);
  assert.equal(r0.text, 'Reading both.');
  assert.deepEqual(
    r0.calls.map((c) => c.id),
    ['call_a', 'call_b'],
  );
  assert.equal(r0.usage.inputTokens, 1200);
  assert.equal(r0.usage.outputTokens, 80);
  assert.equal(r0.usage.dollars, prices.dollars('claude-sonnet-4-5', { inputTokens: 1200, outputTokens: 80 }));
  assert.ok(r0.usage.dollars > 0);
  assert.equal(r0.model, 'claude-sonnet-4-5');
  const r1 = await model.complete(req(1), signal);
  assert.equal(r1.text, undefined);
  assert.equal(r1.calls[0].name, 'code_patch');
  const r2 = await model.complete(req(2), signal);
  assert.deepEqual(r2.calls, []);
  assert.equal(r2.text, 'Done: #1.');
});

test('a replayed reply is a copy: changing it does not change the recording', async () => {
  const model = new RecordedModel(recording());
  const r0 = await model.complete(req(0), signal);
  r0.calls[0].args = '{}';
  const again = await model.complete(req(0), signal);
  assert.equal(again.calls[0].args, '{"path":"a.js"}');
});

test('a custom price table prices the recorded tokens', async () => {
  const model = new RecordedModel(recording(), new PriceTable({ 'claude-sonnet-4-5': { input: 1000, output: 0 } }));
  const r = await model.complete(req(0), signal);
  assert.equal(r.usage.dollars, 1.2);
});

test('tool result contents are not compared (paths and timings vary, a ladder result is worded differently)', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(2);
  m[4] = { role: 'tool', results: [{ callId: 'call_c', content: 'the patch was already applied (found by the lookup)' }] };
  m[2] = {
    role: 'tool',
    results: [
      { callId: 'call_a', content: 'other text', isError: true },
      { callId: 'call_b', content: '' },
    ],
  };
  const r = await model.complete(req(2, m), signal);
  assert.equal(r.text, 'Done: #1.');
});

test('diverged: a turn past the end of the recording', async () => {
  const model = new RecordedModel(recording());
  await diverges(
    model,
    req(3, [...conversation(2), { role: 'assistant', text: 'Done: #1.' }, { role: 'user', content: 'more?' }]),
    /at turn 3: the recording ends after 3 turns/,
  );
});

test('diverged: another number of messages', async () => {
  const model = new RecordedModel(recording());
  const m = [...conversation(1)];
  m.splice(1, 0, { role: 'user', content: 'note: src/a.js changed' });
  await diverges(model, req(1, m), /at turn 1: expected 3 messages, got 4/);
});

test('diverged: results for other calls just before the request', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(2);
  m[4] = { role: 'tool', results: [{ callId: 'call_x', content: 'ok' }] };
  await diverges(model, req(2, m), /at turn 2: expected results for call_c, got call_x/);
});

test('diverged: no tool results where the recording has them', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(1);
  m[2] = { role: 'user', content: 'go on' };
  await diverges(model, req(1, m), /expected results for call_a, call_b, got none/);
});

test('diverged: the previous reply has other call IDs or names', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(2);
  m[3] = { role: 'assistant', calls: [{ id: 'call_c', name: 'write_file', args: '{"path":"a.js","patch":"..."}' }] };
  await diverges(model, req(2, m), /previous reply's call 1 is call_c write_file, the recorded one call_c code_patch/);
});

test('diverged: the previous reply has other arguments', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(2);
  m[3] = { role: 'assistant', calls: [{ id: 'call_c', name: 'code_patch', args: '{"path":"b.js","patch":"..."}' }] };
  await diverges(model, req(2, m), /call_c \(code_patch\) has other arguments/);
});

test('diverged: the previous reply has another number of calls', async () => {
  const model = new RecordedModel(recording());
  const m = conversation(1);
  m[1] = { role: 'assistant', calls: [recording().turns[0].reply.calls[0]] };
  await diverges(model, req(1, m), /previous reply has 1 calls \(call_a read_file\), the recorded one 2/);
});

test('diverged: another system prompt, or another task', async () => {
  const model = new RecordedModel(recording());
  await diverges(model, req(0, conversation(0), 'You are someone else.'), /at turn 0: the system prompt is not the recorded one/);
  await diverges(model, req(0, [{ role: 'user', content: 'Triage something else.' }]), /at turn 0: the first user message is not the recorded task/);
});

test('the divergence message says what to do', async () => {
  const model = new RecordedModel(recording());
  await diverges(
    model,
    req(5, conversation(2)),
    /replays only the conversation it was recorded from; start the run afresh, re-author the recording, or use a live model/,
  );
});

test('an aborted call rejects, also while sleeping for the recorded latency', async () => {
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(new RecordedModel(recording()).complete(req(0), aborted.signal));
  const ac = new AbortController();
  const p = new RecordedModel(recording(), new PriceTable(), { latency: 60_000 }).complete(req(0), ac.signal);
  ac.abort();
  await assert.rejects(p);
});

test('latency "recorded" replays the turn after sleeping its recorded latency (0 when absent)', async () => {
  const rec = recording();
  for (const t of rec.turns) t.latencyMs = 1;
  const r = await new RecordedModel(rec, new PriceTable(), { latency: 'recorded' }).complete(req(0), signal);
  assert.equal(r.calls.length, 2);
});

test('loadRecording: a valid file loads; missing, non-JSON and invalid files name the file', async (t) => {
  const dir = tempDir(t, 'recorded-test-');
  const good = path.join(dir, 'good.json');
  fs.writeFileSync(good, JSON.stringify(recording()));
  assert.deepEqual(await loadRecording(good), recording());

  const missing = path.join(dir, 'missing.json');
  await assert.rejects(loadRecording(missing), (e: unknown) => e instanceof BadInputError && e.message.includes(missing) && /does not exist/.test(e.message));

  const torn = path.join(dir, 'torn.json');
  fs.writeFileSync(torn, JSON.stringify(recording()).slice(0, 50));
  await assert.rejects(loadRecording(torn), (e: unknown) => e instanceof BadInputError && e.message.includes(torn) && /not valid JSON/.test(e.message));

  const bad = path.join(dir, 'bad.json');
  const r = recording() as unknown as { turns: { reply: { calls: { args: unknown }[] } }[] };
  r.turns[1].reply.calls[0].args = { path: 'a.js' };
  fs.writeFileSync(bad, JSON.stringify(r));
  await assert.rejects(
    loadRecording(bad),
    (e: unknown) => e instanceof BadInputError && e.message.includes(bad) && e.message.includes('$.turns[1].reply.calls[0].args'),
  );

  const old = path.join(dir, 'old.json');
  fs.writeFileSync(old, JSON.stringify({ ...recording(), version: 0 }));
  await assert.rejects(loadRecording(old), (e: unknown) => e instanceof BadInputError && e.message.includes('$.version'));
});
