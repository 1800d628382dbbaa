import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeState, encodeState, resultOf, type RunResult, type RunState } from '../../src/store/state';
import { CorruptCheckpointError } from '../../src/core/errors';
import { createRun, openRun } from '../../src/store/files/checkpoint';
import { SavePoint } from '../../src/store/save-points';
import { fullState, sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

test('a state with every field set survives encode and decode unchanged', () => {
  const s = fullState();
  assert.deepEqual(decodeState(encodeState(s), 'x.json'), s);
});

test('unset fields are omitted when encoded and load back as unset, not as empty values', () => {
  const s = sampleState();
  const raw = JSON.parse(encodeState(s)) as Record<string, unknown>;
  for (const k of ['summary', 'answer', 'pending', 'lastReply', 'results', 'attempts', 'files', 'inbox']) {
    assert.equal(k in raw, false, `${k} should not be written`);
  }
  const back = decodeState(encodeState(s), 'x.json');
  for (const k of ['summary', 'answer', 'pending', 'lastReply', 'results', 'attempts', 'files', 'inbox'] as const) {
    assert.equal(k in back, false, `${k} should load as unset`);
  }
  assert.equal('cacheReadTokens' in back.usage, false);
  assert.deepEqual(back, s);
});

test('invalid tool-call JSON arguments save and load fine, byte for byte', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const truncated = '{"path": "a.js"';
  s.phase = 'tools';
  s.lastReply = { calls: [{ id: 'c1', name: 'code_patch', args: truncated }], usage: { inputTokens: 1, outputTokens: 1, dollars: 0 }, model: 'm' };
  s.messages.push({ role: 'assistant', calls: [{ id: 'c1', name: 'code_patch', args: truncated }] });
  const h = await createRun(dir, s);
  await h.save(s, SavePoint.ReplyArrived);
  await h.close();
  const { handle, state } = await openRun(dir, s.runId);
  await handle.close();
  assert.equal(state.lastReply?.calls[0].args, truncated);
  const m = state.messages[1];
  assert.equal(m.role === 'assistant' ? m.calls?.[0].args : undefined, truncated);
});

test('a record key named __proto__ stays an ordinary entry', () => {
  const s = sampleState();
  s.files = JSON.parse('{"__proto__": {"sha256": "' + 'b'.repeat(64) + '", "size": 1, "callId": "c", "writtenAt": "t"}}');
  const back = decodeState(encodeState(s), 'x.json');
  assert.equal(Object.hasOwn(back.files!, '__proto__'), true);
  assert.equal(Object.getPrototypeOf(back.files), Object.prototype);
  assert.equal(back.files!['__proto__'].sha256, 'b'.repeat(64));
});

// Fails to compile if RunResult gains a field RunState lacks, or one whose type RunState cannot supply.
type MissingFromState = Exclude<keyof RunResult, keyof RunState>;
type Mismatched = { [K in keyof RunResult & keyof RunState]: RunState[K] extends RunResult[K] ? never : K }[keyof RunResult & keyof RunState];
const noneMissing: [MissingFromState] extends [never] ? true : false = true;
const noneMismatched: [Mismatched] extends [never] ? true : false = true;
// Every RunResult key, checked exhaustively by the compiler (a missing or extra key is an error).
const RESULT_KEYS: Record<keyof RunResult, true> = {
  runId: true,
  task: true,
  phase: true,
  answer: true,
  messages: true,
  usage: true,
  turns: true,
  restarts: true,
  pending: true,
  files: true,
  createdAt: true,
  updatedAt: true,
};

test('no field of RunResult is missing from RunState', () => {
  assert.equal(noneMissing && noneMismatched, true);
  const s = fullState();
  const r = resultOf(s);
  assert.deepEqual(Object.keys(r).sort(), Object.keys(RESULT_KEYS).sort(), 'resultOf fills every RunResult field of a full state');
  for (const k of Object.keys(r) as (keyof RunResult)[]) {
    assert.ok(k in s, `${k} is in the state`);
    assert.deepEqual(r[k], s[k], `${k} comes from the state`);
  }
});

test("a reply's stop reason and truncated flag: kept when set, unset stays unset, anything else names the field", () => {
  const s = sampleState();
  s.lastReply = { calls: [], usage: { inputTokens: 1, outputTokens: 1, dollars: 0 }, model: 'm', stopReason: 'length', truncated: true };
  assert.deepEqual(decodeState(encodeState(s), 'x.json').lastReply, s.lastReply);
  s.lastReply = { calls: [], usage: { inputTokens: 1, outputTokens: 1, dollars: 0 }, model: 'm' };
  const back = decodeState(encodeState(s), 'x.json').lastReply!;
  assert.equal('stopReason' in back, false);
  assert.equal('truncated' in back, false);
  for (const [field, bad] of [
    ['stopReason', 7],
    ['truncated', false],
    ['truncated', 'yes'],
  ] as const) {
    const raw = JSON.parse(encodeState(s)) as { lastReply: Record<string, unknown> };
    raw.lastReply[field] = bad;
    assert.throws(
      () => decodeState(JSON.stringify(raw), 'x.json'),
      (e: unknown) => e instanceof CorruptCheckpointError && e.message.includes('x.json') && e.message.includes(`lastReply.${field}`),
    );
  }
});
