import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { createRun, listRuns, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { CorruptCheckpointError } from '../../src/core/errors';
import { encodeRecord } from '../../src/store/files/journal-record';
import { SavePoint } from '../../src/store/save-points';
import type { RunState } from '../../src/store/state';
import { sampleState } from './helpers/fixtures';
import { addTurn, journalPath, lineStarts } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

interface Saved {
  dir: string;
  runId: string;
  journal: string;
  /** The state after each save: [0] as created, [i] after save i. */
  states: RunState[];
}

/** A run created and saved `saves` times in the loop's pattern, with the state after each save kept. */
async function savedRun(t: TestContext, saves = 3): Promise<Saved> {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s, { sync: false });
  const states = [structuredClone(s)];
  for (let i = 1; i <= saves; i++) {
    addTurn(s, i);
    if (i === 2) s.pending = [{ kind: 'approval', callId: 'call_2', tool: 'issue_file', args: '{}', askedAt: '2025-01-02T03:04:05.000Z' }];
    if (i === 3) delete s.pending;
    await h.save(s, SavePoint.ResultSaved);
    states.push(structuredClone(s));
  }
  await h.close();
  return { dir, runId: s.runId, journal: journalPath(dir, s.runId), states };
}

async function assertCorrupt(r: Saved, detail: RegExp): Promise<void> {
  const before = [await fs.readFile(runPath(r.dir, r.runId)), await fs.readFile(r.journal)];
  const check = (e: unknown): boolean => {
    assert.ok(e instanceof CorruptCheckpointError, `expected CorruptCheckpointError, got ${String(e)}`);
    assert.equal(e.file, r.journal);
    assert.ok(e.message.includes(r.journal), 'the message names the file');
    assert.match(e.message, detail);
    return true;
  };
  await assert.rejects(readRun(r.dir, r.runId), check);
  await assert.rejects(openRun(r.dir, r.runId), check);
  await assert.rejects(openRun(r.dir, r.runId), check, 'the lock was released: the same error again, not LockedError');
  const listed = (await listRuns(r.dir)).find((l) => l.runId === r.runId);
  assert.ok(listed?.error instanceof CorruptCheckpointError);
  assert.deepEqual([await fs.readFile(runPath(r.dir, r.runId)), await fs.readFile(r.journal)], before, 'neither file was changed');
}

test('each save appends exactly one record line, and the run reads back as saved', async (t) => {
  const r = await savedRun(t);
  const lines = (await fs.readFile(r.journal, 'utf8')).split('\n');
  assert.equal(lines.pop(), '', 'the journal ends with a newline');
  assert.equal(lines.length, 3);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).seq),
    [1, 2, 3],
  );
  assert.deepEqual(await readRun(r.dir, r.runId), r.states[3]);
  assert.equal('pending' in (await readRun(r.dir, r.runId)), false, 'a field unset by a later save loads as unset');
});

test('a torn last record, cut at every byte offset, is dropped: the previous save stands, and openRun cuts it', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  const lastStart = starts[starts.length - 2];
  for (let cut = lastStart; cut < full.length; cut++) {
    const torn = full.subarray(0, cut);
    await fs.writeFile(r.journal, torn);
    assert.deepEqual(await readRun(r.dir, r.runId), r.states[2], `cut at ${cut}`);
    assert.deepEqual(await fs.readFile(r.journal), torn, `readRun leaves the file as it is (cut at ${cut})`);
    const { handle, state } = await openRun(r.dir, r.runId, { sync: false });
    assert.deepEqual(state, r.states[2], `cut at ${cut}`);
    assert.equal((await fs.stat(r.journal)).size, lastStart, `openRun cut the tail (cut at ${cut})`);
    await handle.close();
  }
  // After the cut, saving goes on as usual.
  await fs.writeFile(r.journal, full.subarray(0, lastStart + 7));
  const { handle, state } = await openRun(r.dir, r.runId, { sync: false });
  addTurn(state, 9);
  await handle.save(state, SavePoint.ReplyArrived);
  await handle.close();
  assert.deepEqual(await readRun(r.dir, r.runId), state);
});

test('a damaged last record (a flipped byte, or a zero-filled tail) is dropped like a torn one', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  const lastStart = starts[starts.length - 2];
  for (const at of [lastStart, lastStart + 10, Math.floor((lastStart + full.length) / 2), full.length - 2]) {
    const bad = Buffer.from(full);
    bad[at] ^= 0x01;
    await fs.writeFile(r.journal, bad);
    assert.deepEqual(await readRun(r.dir, r.runId), r.states[2], `byte ${at} flipped`);
  }
  await fs.writeFile(r.journal, Buffer.concat([full, Buffer.alloc(4096)]));
  assert.deepEqual(await readRun(r.dir, r.runId), r.states[3], 'zeros after the last record');
  const { handle } = await openRun(r.dir, r.runId, { sync: false });
  await handle.close();
  assert.deepEqual(await fs.readFile(r.journal), full, 'openRun cut the zeros');
});

test('a damaged record in the middle, with good ones after it, is corruption naming the journal; nothing is changed', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  const bad = Buffer.from(full);
  bad[starts[1] + 20] ^= 0x01;
  await fs.writeFile(r.journal, bad);
  await assertCorrupt(r, /record 2 .*damaged.*follow/);
});

test('two records run together (a lost newline) are corruption', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  await fs.writeFile(r.journal, Buffer.concat([full.subarray(0, starts[1] - 1), full.subarray(starts[1])]));
  await assertCorrupt(r, /record 1 .*damaged/);
});

test('a checksummed record that does not read is corruption, even as the last one', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  await fs.writeFile(r.journal, Buffer.concat([full, encodeRecord(4, { from: 999, messages: [], set: [], patch: [], unset: [] })]));
  await assertCorrupt(r, /keeps 999 messages/);
  await fs.writeFile(r.journal, Buffer.concat([full, encodeRecord(4, { from: -1, messages: [], set: [], patch: [], unset: [] })]));
  await assertCorrupt(r, /good checksum but field "from" should be at least 0, found -1/);
});

test('records out of sequence are corruption', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  await fs.writeFile(r.journal, Buffer.concat([full, full.subarray(starts[2])]));
  await assertCorrupt(r, /save 3, but save 3 comes before it/);
});

test('a journal that does not follow its snapshot (its first record missing) is corruption', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  const starts = lineStarts(full);
  await fs.writeFile(r.journal, full.subarray(starts[1]));
  await assertCorrupt(r, /start at save 2, but the snapshot .* holds save 0/);
});

test('a field of the wrong type in a record is corruption naming the journal and the field', async (t) => {
  const r = await savedRun(t);
  const full = await fs.readFile(r.journal);
  await fs.writeFile(r.journal, Buffer.concat([full, encodeRecord(4, { from: 7, messages: [], set: [['turns', 'many']], patch: [], unset: [] })]));
  await assertCorrupt(r, /\$\.turns/);
});

test('a missing journal is a run with no saves since its snapshot', async (t) => {
  const r = await savedRun(t);
  await fs.unlink(r.journal);
  assert.deepEqual(await readRun(r.dir, r.runId), r.states[0]);
});
