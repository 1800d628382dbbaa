import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WindowContextPolicy, withSummary, contextWindow, cutPoints } from '../../src/model/context';
import { newState, encodeState, decodeState, type RunState } from '../../src/store/state';
import { type Message } from '../../src/core/conversation';

const TASK = 'Triage the crash reports in crashes/: file one issue per cause, write a regression test, fix the bug.';
const live = (): AbortSignal => new AbortController().signal;

function state(): RunState {
  return newState({
    runId: 'r1',
    task: 't',
    config: { workspace: '/w', provider: 'anthropic', model: 'claude-sonnet-4-5', keys: true },
    system: 'You triage crashes.',
    prompt: TASK,
    now: new Date('2025-01-01T00:00:00Z'),
  });
}

/** Adds `n` turns: an assistant with one or two calls and their results (big file contents), sometimes a note from the user. */
function addTurns(s: RunState, n: number, from = 0): void {
  for (let t = from; t < from + n; t++) {
    const two = t % 3 === 0;
    const calls = [{ id: `toolu_${t}a`, name: 'read_file', args: JSON.stringify({ path: `src/file${t}.js` }) }];
    if (two) calls.push({ id: `toolu_${t}b`, name: 'search_files', args: JSON.stringify({ query: `crash ${t}` }) });
    s.messages.push({ role: 'assistant', text: t % 2 === 0 ? `Looking at file ${t}.` : undefined, calls } as Message);
    s.messages.push({
      role: 'tool',
      results: calls.map((c) => ({ callId: c.id, content: `contents of ${c.args}\n` + 'x'.repeat(600), ...(t === 4 ? { isError: true } : {}) })),
    });
    if (t % 5 === 4) s.messages.push({ role: 'user', content: `Note: file ${t} changed.` });
  }
}

/** True when no assistant's calls are on one side of `covers` and their results on the other. */
function splitsNoCall(messages: Message[], covers: number): boolean {
  for (let j = 0; j < messages.length; j++) {
    const m = messages[j];
    if (m.role === 'assistant' && m.calls?.length && j < covers !== j + 1 < covers) return false;
  }
  return messages[covers]?.role !== 'tool';
}

const policy = (): WindowContextPolicy => new WindowContextPolicy({ windowTokens: 2000, threshold: 0.8, target: 0.5 });

/** What the loop does with the policy's answer: a new summary replaces the state's. */
async function prep(s: RunState): Promise<void> {
  const summary = await policy().prepare(s, live());
  if (summary) s.summary = summary;
}

test('below the threshold nothing changes', async () => {
  const s = state();
  addTurns(s, 2);
  await prep(s);
  assert.equal(s.summary, undefined);
});

test('past the threshold older turns are summarised: task kept, calls and result heads listed, calls never split from results', async () => {
  const s = state();
  addTurns(s, 12);
  await prep(s);
  const sum = s.summary;
  assert.ok(sum, 'a summary was set');
  assert.ok(sum.covers > 1 && sum.covers < s.messages.length);
  assert.ok(splitsNoCall(s.messages, sum.covers));
  assert.match(sum.text, /Triage the crash reports in crashes\/: file one issue per cause/);
  assert.match(sum.text, /you called read_file \{"path":"src\/file0\.js"\}/);
  assert.match(sum.text, /read_file returned: contents of/);
  assert.match(sum.text, /you called search_files/);
  assert.match(sum.text, /you said: Looking at file 0\./);
  // What the loop then sends fits the target (half the window) by the same estimate.
  const sent = s.system.length + sum.text.length + JSON.stringify(s.messages.slice(sum.covers)).length;
  assert.ok(sent / 4 < 2000, `sent about ${sent / 4} tokens`);
});

test('the summary is deterministic, survives a checkpoint round trip unchanged, and is only ever extended', async () => {
  const a = state();
  const b = state();
  addTurns(a, 12);
  addTurns(b, 12);
  await prep(a);
  await prep(b);
  assert.deepEqual(a.summary, b.summary);

  // A resumed run (state loaded from its checkpoint) sends the same context: prepare changes nothing.
  const resumed = decodeState(encodeState(a), 'cp.json');
  await prep(resumed);
  assert.deepEqual(resumed.summary, a.summary);

  // More turns: the summary grows from the old text; covers only moves forward.
  const before = a.summary!;
  addTurns(a, 12, 12);
  await prep(a);
  assert.ok(a.summary!.covers > before.covers);
  assert.ok(a.summary!.text.startsWith(before.text + '\n'));
  assert.ok(splitsNoCall(a.messages, a.summary!.covers));
  assert.match(a.summary!.text, /the user said: Note: file 4 changed\./);
  assert.match(a.summary!.text, /read_file failed: contents of/);
});

test('covers never splits a call from its results, whatever the length of the conversation', async () => {
  for (let n = 1; n <= 30; n++) {
    const s = state();
    addTurns(s, n);
    await prep(s);
    if (s.summary) assert.ok(splitsNoCall(s.messages, s.summary.covers), `n=${n} covers=${s.summary.covers}`);
  }
});

test('cut points are never at a tool result nor at the first message', () => {
  const msgs: Message[] = [
    { role: 'user', content: 'task' },
    { role: 'assistant', calls: [{ id: 'a', name: 'x', args: '{}' }] },
    { role: 'tool', results: [{ callId: 'a', content: 'r' }] },
    { role: 'user', content: 'note' },
    { role: 'assistant', text: 'done' },
  ];
  assert.deepEqual(cutPoints(msgs), [1, 3, 4]);
});

test('withSummary: the summary leads as user text, merged into a leading user message', () => {
  const summary = { text: 'SUMMARY', covers: 3 };
  assert.deepEqual(withSummary({ messages: [{ role: 'assistant', text: 'hi' }], summary }), [
    { role: 'user', content: 'SUMMARY' },
    { role: 'assistant', text: 'hi' },
  ]);
  assert.deepEqual(withSummary({ messages: [{ role: 'user', content: 'note' }], summary }), [{ role: 'user', content: 'SUMMARY\n\nnote' }]);
  const plain: Message[] = [{ role: 'user', content: 'task' }];
  assert.equal(withSummary({ messages: plain }), plain);
});

test('model windows by prefix, with a small default for unknown local models', () => {
  assert.equal(contextWindow('claude-sonnet-4-5-20250929'), 200_000);
  assert.equal(contextWindow('gpt-4.1-mini'), 1_047_576);
  assert.equal(contextWindow('gpt-4o-mini'), 128_000);
  assert.equal(contextWindow('qwen2.5-coder:7b'), 32_000);
});

test('prepare rejects when already cancelled', async () => {
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(policy().prepare(state(), ac.signal), (e: unknown) => e instanceof Error && e.name === 'AbortError');
});
