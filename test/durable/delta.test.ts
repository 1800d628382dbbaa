/**
 * A save writes what its caller says changed (a StateEdit), nothing more and nothing less;
 * a save given only the state writes all of it. Both load back exactly.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { createRun, openRun, readRun } from '../../src/store/files/checkpoint';
import type { RunHandle } from '../../src/store/run-handle';
import { SavePoint } from '../../src/store/save-points';
import { StateEdit } from '../../src/store/state-edit';
import type { RunState } from '../../src/store/state';
import type { Message } from '../../src/core/conversation';
import { fullState, sampleState } from './helpers/fixtures';
import { addTurn, journalPath } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

interface Line {
  seq: number;
  from: number;
  messages?: Message[];
  set?: Record<string, unknown>;
  patch?: Record<string, Record<string, unknown>>;
  unset?: string[];
}

/** The fields a record sets or patches, besides updatedAt (set by every save). */
function changed(line: Line): string[] {
  return [...Object.keys(line.set ?? {}), ...Object.keys(line.patch ?? {})].filter((k) => k !== 'updatedAt').sort();
}

async function lastLine(dir: string, runId: string): Promise<Line> {
  const lines = (await fs.readFile(journalPath(dir, runId), 'utf8')).trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Line;
}

async function started(t: TestContext, s: RunState = sampleState()): Promise<{ dir: string; h: RunHandle; s: RunState; edit: StateEdit }> {
  const dir = tempDir(t);
  const h = await createRun(dir, s, { sync: false });
  t.after(() => h.close());
  const edit = new StateEdit(s);
  addTurn(edit, 1);
  addTurn(edit, 2);
  await h.save(edit, SavePoint.ResultSaved);
  return { dir, h, s, edit };
}

test('an append-only save writes only the new messages and the fields that were set', async (t) => {
  const { dir, h, s, edit } = await started(t);
  addTurn(edit, 3);
  await h.save(edit, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.deepEqual(line.messages, s.messages.slice(5));
  assert.deepEqual(changed(line), ['turns', 'usage']);
  assert.equal(line.unset, undefined);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('a save with nothing changed writes no messages and no fields but the time', async (t) => {
  const { dir, h, s, edit } = await started(t);
  await h.save(edit, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.equal(line.messages, undefined);
  assert.deepEqual(changed(line), []);
});

test('an earlier message edited in place and declared is written, and a crash then a resume sees the edit', async (t) => {
  const { dir, h, s, edit } = await started(t);
  // In place: the same object, its content changed (no comparison of objects could notice this).
  const tool = s.messages[2] as Extract<Message, { role: 'tool' }>;
  tool.results[0] = { ...tool.results[0], content: 'edited in place' };
  edit.messageChanged(2);
  addTurn(edit, 3);
  await h.save(edit, SavePoint.ResultSaved);
  assert.equal((await lastLine(dir, s.runId)).from, 2, 'the record starts at the edited message');
  await h.close(); // the process dies here: nothing more is saved
  const { handle, state } = await openRun(dir, s.runId, { sync: false });
  await handle.close();
  assert.equal((state.messages[2] as Extract<Message, { role: 'tool' }>).results[0].content, 'edited in place');
  assert.deepEqual(state, s);
});

test('a replaced earlier message keeps only the prefix before it in the record', async (t) => {
  const { dir, h, s, edit } = await started(t);
  edit.replaceMessage(1, { role: 'assistant', text: 'replaced' });
  await h.save(edit, SavePoint.ResultSaved);
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 1);
  assert.equal(line.messages?.length, 4);
  assert.deepEqual(await readRun(dir, s.runId), s);
  assert.throws(() => edit.replaceMessage(99, { role: 'user', content: 'x' }), RangeError);
});

test('a save given the state itself writes a full record: every message and field, and removes what is gone', async (t) => {
  const { dir, h, s } = await started(t);
  s.messages.length = 2;
  s.messages[1] = { role: 'assistant', text: 'a whole new ending' };
  s.pending = [{ kind: 'approval', callId: 'c', tool: 'issue_file', args: '{}', askedAt: '2025-01-02T03:04:05.000Z' }];
  await h.save(s, SavePoint.PausedOrDone);
  let line = await lastLine(dir, s.runId);
  assert.equal(line.from, 0, 'a full record');
  assert.equal(line.messages?.length, 2);
  assert.deepEqual(await readRun(dir, s.runId), s);
  delete s.pending;
  await h.save(s, SavePoint.ResultSaved);
  line = await lastLine(dir, s.runId);
  assert.deepEqual(line.unset, ['pending']);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

test('fields set and removed through the edit load back exactly, including odd map keys', async (t) => {
  const { dir, h, s, edit } = await started(t, sampleState());
  const full = fullState(s.runId);
  for (const k of ['phase', 'summary', 'pending', 'lastReply', 'results', 'attempts', 'inbox', 'answer'] as const) edit.set(k, full[k] as never);
  for (const [k, v] of Object.entries(full.files!)) edit.put('files', k, v);
  edit.put('files', '__proto__', full.files!['src/a.js']);
  await h.save(edit, SavePoint.ReplyArrived);
  assert.deepEqual(await readRun(dir, s.runId), s);
  edit.set('pending', undefined);
  edit.set('answer', undefined);
  edit.set('inbox', []);
  edit.set('phase', 'done');
  await h.save(edit, SavePoint.PausedOrDone);
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
  const edit = new StateEdit(state);
  edit.set('restarts', state.restarts + 1);
  await handle.save(edit, SavePoint.RunStarted);
  await handle.close();
  const line = await lastLine(dir, s.runId);
  assert.equal(line.from, 5);
  assert.deepEqual(changed(line), ['restarts']);
  assert.deepEqual(await readRun(dir, s.runId), state);
});

test('a map that gains an entry is patched with that entry only; one that loses an entry is written whole', async (t) => {
  const { dir, h, s, edit } = await started(t);
  const rec = (i: number) => ({ sha256: 'c'.repeat(64), size: i, callId: `call_${i}`, writtenAt: '2025-01-02T03:04:05.000Z' });
  for (let i = 0; i < 50; i++) edit.put('files', `src/f${i}.js`, rec(i));
  await h.save(edit, SavePoint.ResultSaved);
  assert.equal(Object.keys((await lastLine(dir, s.runId)).set?.files as object).length, 50, 'a new map is written whole');
  edit.put('files', 'src/new.js', rec(99));
  edit.put('files', 'src/f3.js', rec(33));
  await h.save(edit, SavePoint.ResultSaved);
  let line = await lastLine(dir, s.runId);
  assert.deepEqual(Object.keys(line.patch?.files ?? {}).sort(), ['src/f3.js', 'src/new.js']);
  assert.equal(line.set?.files, undefined);
  assert.deepEqual(await readRun(dir, s.runId), s);
  edit.drop('files', 'src/f7.js');
  await h.save(edit, SavePoint.ResultSaved);
  line = await lastLine(dir, s.runId);
  assert.equal(Object.keys(line.set?.files as object).length, 50);
  assert.deepEqual(await readRun(dir, s.runId), s);
});
