// The event record's local file: append-only lines, a torn last line ignored (and kept apart
// from the next event), an unreadable line skipped, never an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileRunEventStore, eventsPath } from '../../src/store/files/run-events-file';
import { decodeEventLine, encodeEventLine } from '../../src/store/run-event-line';
import type { RunEvent } from '../../src/store/run-event';
import { tempDir } from '../support/temp-dir';

const opened = (turn: number): RunEvent => ({
  type: 'opened',
  at: '2026-01-01T00:00:00.000Z',
  resumed: turn > 0,
  reask: false,
  restarts: turn,
  phase: 'model',
  turn,
});

test('events are appended in order, one line each, in a 0600 file in a 0700 folder; a run without a record has none', async (t) => {
  const dir = tempDir(t, 'events-');
  const store = new FileRunEventStore(dir);
  assert.deepEqual(await store.read('r1'), { events: [], skipped: 0 });
  await store.append('r1', [opened(0)]);
  await store.append('r1', [
    { type: 'reply', at: 't', turn: 1, usage: { inputTokens: 1, outputTokens: 2, dollars: 0.5 }, calls: 1 },
    { type: 'stopped', at: 't', how: 'paused' },
  ]);
  const got = await store.read('r1');
  assert.deepEqual(
    got.events.map((e) => e.type),
    ['opened', 'reply', 'stopped'],
  );
  assert.equal(got.skipped, 0);
  const file = eventsPath(dir, 'r1');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 4);
  await store.remove('r1');
  assert.equal(fs.existsSync(file), false);
  await store.remove('r1');
});

test('a torn last line is ignored on read, and the next append starts a line of its own', async (t) => {
  const dir = tempDir(t, 'events-');
  const store = new FileRunEventStore(dir, { sync: false });
  await store.append('r2', [opened(0)]);
  const whole = encodeEventLine(opened(1));
  fs.appendFileSync(eventsPath(dir, 'r2'), whole.slice(0, 20)); // a crash cut the append short
  let got = await store.read('r2');
  assert.equal(got.events.length, 1);
  assert.equal(got.skipped, 1);
  await store.append('r2', [opened(2)]);
  got = await store.read('r2');
  assert.deepEqual(
    got.events.map((e) => (e.type === 'opened' ? e.turn : -1)),
    [0, 2],
    'the event after the torn line is read',
  );
  assert.equal(got.skipped, 1);
});

test('lines that are not events of this version are skipped, never fatal', () => {
  assert.equal(decodeEventLine('not json'), undefined);
  assert.equal(decodeEventLine('[]'), undefined);
  assert.equal(decodeEventLine(JSON.stringify({ v: 2, ...opened(0) })), undefined, 'another version');
  assert.equal(decodeEventLine(JSON.stringify({ v: 1, type: 'opened', at: 't' })), undefined, 'fields missing');
  assert.equal(decodeEventLine(JSON.stringify({ v: 1, type: 'nope', at: 't' })), undefined, 'unknown type');
  assert.deepEqual(decodeEventLine(encodeEventLine(opened(3)).trimEnd()), opened(3));
  const checks: RunEvent = { type: 'checks', at: 't', passed: 1, total: 2, failed: [{ name: 'a', detail: 'b' }] };
  assert.deepEqual(decodeEventLine(encodeEventLine(checks)), checks);
});
