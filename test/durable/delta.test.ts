import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { createRun, openRun, readRun } from '../../src/durable/checkpoint';
import type { RunHandle } from '../../src/durable/handle';
import { SavePoint } from '../../src/durable/savepoints';
import type { Message, RunState } from '../../src/durable/state';
import { fullState, sampleState, tempDir } from './helpers/fixtures';
import { addTurn, journalPath } from './helpers/journal';

interface Line {
  seq: number;
  from: number;
  messages?: Message[];
  set?: Record<string, unknown>;
  patch?: Record<string, Record<string, unknown>>;
  unset?: string[];
}

/** The fields a record sets or patches, besides updatedAt (which changes or not depending on the clock). */
function changed(line: Line): string[] {
  return [...Object.keys(line.set ?? {}), ...Object.keys(line.patch ?? {})].filter((k) => k !== 'updatedAt').sort();
}

async function lastLine(dir: string, runId: string): Promise<Line> {
  const lines = (await fs.readFile(journalPath(dir, runId), 'utf8')).trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Line;
}

async function started(t: TestContext, s: RunState = sampleState()): Promise<{ dir: string; h: RunHandle; s: RunState }> {
  const dir = await tempDir(t);
  const h = await createRun(dir, s, { sync: false });
  t.after(() => h.close());
  addTurn(s, 1);
  addTurn(s, 2);
  await h.save(s, SavePoint.ResultSaved);
  return { dir, h, s };
}

test('an append-only save writes only the new messages and the fields that changed', async (t) => {
  const { dir, h, s } = await started(t);
  addTurn(s, 3);
  await h.save(s, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.deepEqual(line.messages, s.messages.slice(5));
  assert.deepEqual(changed(line), ['turns', 'usage']);
  assert.equal(line.unset, undefined);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('a save with nothing new writes no messages and no fields but the time', async (t) => {
  const { dir, h, s } = await started(t);
  await h.save(s, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.equal(line.messages, undefined);
  assert.deepEqual(changed(line), []);
});

test('a message array replaced by a copy with one more message is still an append', async (t) => {
  const { dir, h, s } = await started(t);
  s.messages = [...s.messages, { role: 'user', content: 'more' }];
  await h.save(s, SavePoint.ResultSaved);
  assert.equal((await lastLine(dir, s.runId)).from, 5);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('the last saved message changed in place (a result added to it) is written again', async (t) => {
  const { dir, h, s } = await started(t);
  const last = s.messages[4] as Extract<Message, { role: 'tool' }>;
  last.results.push({ callId: 'call_2b', content: 'second result' });
  await h.save(s, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 4);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('a replaced older message keeps only the prefix before it; a shrunk list keeps what is left', async (t) => {
  const { dir, h, s } = await started(t);
  s.messages[1] = { role: 'assistant', text: 'replaced' };
  await h.save(s, SavePoint.ResultSaved);
  assert.equal((await lastLine(dir, s.runId)).from, 1);
  assert.deepEqual(await readRun(dir, s.runId), s);
  s.messages.length = 2;
  await h.save(s, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 2);
  assert.equal(line.messages, undefined);
  assert.deepEqual(await readRun(dir, s.runId), s);
  s.messages = [{ role: 'user', content: 'a whole new conversation' }];
  await h.save(s, SavePoint.ResultSaved);
  assert.equal((await lastLine(dir, s.runId)).from, 0, 'a full record');
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('fields set, changed and removed across saves load back exactly, including odd map keys', async (t) => {
  const { dir, h, s } = await started(t, sampleState());
  const full = fullState(s.runId);
  Object.assign(s, { ...full, messages: s.messages, updatedAt: s.updatedAt });
  s.files = { ...full.files, __proto__x: full.files!['src/a.js'] };
  Object.defineProperty(s.files, '__proto__', { value: full.files!['src/a.js'], enumerable: true, writable: true, configurable: true });
  await h.save(s, SavePoint.ReplyArrived);
  assert.deepEqual(await readRun(dir, s.runId), s);
  delete s.pending;
  delete s.answer;
  s.inbox = [];
  s.phase = 'done';
  await h.save(s, SavePoint.PausedOrDone);
  const line = await lastLine(dir, s.runId);
  assert.deepEqual(line.unset?.sort(), ['answer', 'pending']);
  const back = await readRun(dir, s.runId);
  assert.deepEqual(back, s);
  assert.equal('pending' in back, false);
  assert.ok(Object.hasOwn(back.files!, '__proto__'));
});

test('the first save after openRun is a delta from the loaded state', async (t) => {
  const { dir, h, s } = await started(t);
  await h.close();
  const { handle, state } = await openRun(dir, s.runId, { sync: false });
  state.restarts++;
  await handle.save(state, SavePoint.RunStarted);
  await handle.close();
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.deepEqual(changed(line), ['restarts']);
  assert.deepEqual(await readRun(dir, s.runId), state);
});

test('a map that gains an entry is patched with that entry only; one that loses an entry is written whole', async (t) => {
  const { dir, h, s } = await started(t);
  const rec = (i: number) => ({ sha256: 'c'.repeat(64), size: i, callId: `call_${i}`, writtenAt: '2025-01-02T03:04:05.000Z' });
  s.files = {};
  for (let i = 0; i < 50; i++) s.files[`src/f${i}.js`] = rec(i);
  await h.save(s, SavePoint.ResultSaved);
  Object.defineProperty(s.files, 'src/new.js', { value: rec(99), enumerable: true, writable: true, configurable: true });
  s.files['src/f3.js'] = rec(33);
  await h.save(s, SavePoint.ResultSaved);
  let line = await lastLine(dir, s.runId);
  assert.deepEqual(Object.keys(line.patch?.files ?? {}).sort(), ['src/f3.js', 'src/new.js']);
  assert.equal(line.set?.files, undefined);
  assert.deepEqual(await readRun(dir, s.runId), s);
  delete s.files['src/f7.js'];
  await h.save(s, SavePoint.ResultSaved);
  line = await lastLine(dir, s.runId);
  assert.equal(Object.keys(line.set?.files as object).length, 50);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('in a long run, a message replaced in the middle is written within length/1024 saves; a new array at once', async (t) => {
  const s = sampleState();
  for (let i = 1; i <= 2500; i++) addTurn(s, i, 8);
  const { dir, h } = await started(t, s);
  const n = s.messages.length;
  s.messages[2600] = { role: 'user', content: 'replaced in the middle' };
  let saves = 0;
  let line: Line;
  do {
    s.messages.push({ role: 'user', content: `more ${saves}` });
    await h.save(s, SavePoint.ResultSaved);
    saves++;
    line = await lastLine(dir, s.runId);
  } while (line.from > 2600 && saves < 10);
  assert.equal(line.from, 2600, 'the record starts at the replaced message');
  assert.ok(saves <= Math.ceil(n / 1024) + 1, `found after ${saves} saves`);
  assert.deepEqual(await readRun(dir, s.runId), s);
  s.messages = s.messages.slice();
  s.messages[1000] = { role: 'user', content: 'replaced in a new array' };
  await h.save(s, SavePoint.ResultSaved);
  assert.equal((await lastLine(dir, s.runId)).from, 1000);
  assert.deepEqual(await readRun(dir, s.runId), s);
});
