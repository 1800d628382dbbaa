/**
 * The disk model the power-loss sweep relies on: what survives a cut, under both models, for
 * each kind of change; and the tracing I/O layer that feeds it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiskModel, type SurvivingNode } from '../../src/sweep/disk-model';
import { TraceIo } from '../../src/sweep/trace-io';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { tempDir } from '../support/temp-dir';

/** The surviving tree as { "a/b": "bytes" | "<dir>" }. */
function flat(n: SurvivingNode, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (n.kind !== 'dir') throw new Error('not a folder');
  for (const [name, child] of n.entries) {
    const p = prefix + name;
    if (child.kind === 'dir') {
      out[p] = '<dir>';
      flat(child, `${p}/`, out);
    } else out[p] = child.kind === 'file' ? child.bytes.toString() : `-> ${child.target}`;
  }
  return out;
}

async function write(io: TraceIo, file: string, text: string, o: { flags?: 'w' | 'wx' | 'a'; sync?: boolean } = {}): Promise<void> {
  const fh = await io.open(file, o.flags ?? 'w');
  await fh.write(Buffer.from(text));
  if (o.sync) await fh.sync();
  await fh.close();
}

test('what existed when the model was made survives; unsynced new entries and bytes do not (undo), entries do (keep)', async (t) => {
  const root = tempDir(t);
  fs.writeFileSync(path.join(root, 'old.txt'), 'old');
  const model = new DiskModel(root);
  const io = new TraceIo(model);
  await io.mkdir(path.join(root, 'd'));
  await write(io, path.join(root, 'd', 'new.txt'), 'new', { sync: true });
  await write(io, path.join(root, 'old.txt'), 'rewritten');
  assert.deepEqual(flat(model.survivors('undo')), { 'old.txt': 'old' });
  assert.deepEqual(flat(model.survivors('keep')), { d: '<dir>', 'd/new.txt': 'new', 'old.txt': '' }, 'O_TRUNC without a sync: the zero-length file');
  await io.syncDir(root);
  assert.deepEqual(flat(model.survivors('undo')), { d: '<dir>', 'old.txt': 'old' }, 'd is durable, its entries are not');
  await io.syncDir(path.join(root, 'd'));
  assert.deepEqual(flat(model.survivors('undo')), { d: '<dir>', 'd/new.txt': 'new', 'old.txt': 'old' });
  assert.deepEqual(model.differences(), []);
});

test("a rename carries the file's own durable bytes and is undone until its folder is synced", async (t) => {
  const root = tempDir(t);
  fs.writeFileSync(path.join(root, 'f'), 'v1');
  const model = new DiskModel(root);
  const io = new TraceIo(model);
  await write(io, path.join(root, 'f.tmp'), 'v2', { flags: 'wx', sync: true });
  await io.rename(path.join(root, 'f.tmp'), path.join(root, 'f'));
  assert.deepEqual(flat(model.survivors('undo')), { f: 'v1' });
  assert.deepEqual(flat(model.survivors('keep')), { f: 'v2' });
  await io.syncDir(root);
  assert.deepEqual(flat(model.survivors('undo')), { f: 'v2' });
});

test('appends survive only as far as synced; an unsynced removal comes back (undo)', async (t) => {
  const root = tempDir(t);
  fs.writeFileSync(path.join(root, 'j'), 'a');
  fs.mkdirSync(path.join(root, 'gone'));
  fs.writeFileSync(path.join(root, 'gone', 'x'), 'x');
  const model = new DiskModel(root);
  const io = new TraceIo(model);
  const fh = await io.open(path.join(root, 'j'), 'a');
  await fh.write(Buffer.from('b'));
  await fh.datasync();
  await fh.write(Buffer.from('c'));
  await fh.close();
  await io.rm(path.join(root, 'gone'), { recursive: true });
  assert.deepEqual(flat(model.survivors('undo')), { j: 'ab', gone: '<dir>', 'gone/x': 'x' });
  assert.deepEqual(flat(model.survivors('keep')), { j: 'ab' });
});

test('the power is cut right after the chosen operation; changes outside the root go on', async (t) => {
  const root = tempDir(t);
  const outside = tempDir(t);
  fs.mkdirSync(path.join(root, 'in'));
  const model = new DiskModel(path.join(root, 'in'));
  const io = new TraceIo(model, { cutAfter: 2 });
  await io.mkdir(path.join(root, 'in', 'a'));
  await assert.rejects(io.mkdir(path.join(root, 'in', 'b')), SimulatedCrash);
  assert.ok(io.powerCut);
  await assert.rejects(io.mkdir(path.join(root, 'in', 'c')), SimulatedCrash, 'nothing happens without power');
  assert.ok(!fs.existsSync(path.join(root, 'in', 'c')));
  await io.mkdir(path.join(outside, 'still'));
  assert.ok(fs.existsSync(path.join(outside, 'still')));
  assert.deepEqual(io.ops, ['mkdir a', 'mkdir b']);
});

test('a change made without the I/O layer shows as a difference', async (t) => {
  const root = tempDir(t);
  const model = new DiskModel(root);
  fs.writeFileSync(path.join(root, 'sneaky'), 'x');
  assert.deepEqual(model.differences(), [`${path.join(root, 'sneaky')}: on disk, not in the model`]);
});

test('the model covers its root and what is below it, nothing beside it', async (t) => {
  const root = tempDir(t);
  fs.mkdirSync(path.join(root, 'in'));
  const model = new DiskModel(path.join(root, 'in'));
  assert.ok(model.covers(path.join(root, 'in')));
  assert.ok(model.covers(path.join(root, 'in', '..x')), 'a name starting with ".." is inside');
  assert.ok(!model.covers(root));
  assert.ok(!model.covers(path.join(root, 'inside')));
});
