/**
 * Power cuts against the store, with the disk model (src/sweep/disk-model.ts): what was
 * acknowledged before the cut is there after it, and nothing the cut leaves blocks the next
 * process. Both models: entries undone ('undo') and entries kept, unsynced bytes lost ('keep').
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRun, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { SavePoint } from '../../src/store/save-points';
import { PowerCutDisk } from '../../src/sweep/power-cut';
import type { CutModel } from '../../src/sweep/disk-model';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { copyTreeDurable } from '../../src/disk/durable-copy';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

const MODELS: CutModel[] = ['undo', 'keep'];

for (const how of MODELS) {
  test(`a run whose creation returned is still there after a power cut (${how})`, async (t) => {
    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const s = sampleState();
    const life = await disk.life(async (power) => {
      const h = await createRun(stateDir, s);
      power.cut(); // right after createRun returned
      await h.close();
    });
    assert.ok(life.error instanceof SimulatedCrash, `the cut ends the life: ${String(life.error)}`);
    assert.ok(life.cut);
    const back = await readRun(stateDir, s.runId);
    assert.equal(back.runId, s.runId);
  });

  test(`a save that returned is there after a power cut (${how})`, async (t) => {
    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const s = sampleState();
    await disk.life(async (power) => {
      const h = await createRun(stateDir, s);
      s.turns = 7;
      await h.save(s, SavePoint.RunStarted);
      power.cut();
      await h.close();
    });
    assert.equal((await readRun(stateDir, s.runId)).turns, 7);
  });

  test(`after a power cut, the lock of the run is taken again at once (${how})`, async (t) => {
    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const s = sampleState();
    await disk.life(async (power) => {
      await createRun(stateDir, s);
      power.cut(); // the lock is held when the power goes
    });
    const lockDir = `${runPath(stateDir, s.runId)}.lock`;
    // What the cut left of the lock, for the message if the open below fails.
    const left = fs.existsSync(lockDir)
      ? fs.readdirSync(lockDir).map((n) => `${n}: ${fs.readFileSync(path.join(lockDir, n), 'utf8').length} bytes`)
      : ['no lock folder'];
    const second = await disk.life(async () => {
      const { handle, state } = await openRun(stateDir, s.runId);
      await handle.close();
      return state.runId;
    });
    assert.equal(second.error, undefined, `openRun after the reboot failed (${left.join(', ')}): ${String(second.error)}`);
    assert.equal(second.value, s.runId);
  });
}

for (const how of MODELS) {
  test(`a cut between making the lock folder and writing its owner record blocks no one after the reboot (${how})`, async (t) => {
    const s = sampleState();
    // Where the lock folder is made, counted on a clean creation.
    const probeRoot = tempDir(t);
    const probe = await new PowerCutDisk(probeRoot, how).life(async () => (await createRun(path.join(probeRoot, 'state'), s)).close());
    const mkdirAt = probe.ops.findIndex((op) => op.startsWith('mkdir') && op.endsWith('.json.lock')) + 1;
    assert.ok(mkdirAt > 0, `the lock folder is made through the I/O layer: ${probe.ops.join('; ')}`);

    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const first = await disk.life(() => createRun(stateDir, s), { cutAfter: mkdirAt });
    assert.ok(first.cut && first.error instanceof SimulatedCrash);
    const again = await disk.life(async () => (await createRun(stateDir, s)).close());
    assert.equal(again.error, undefined, `the same command after the reboot failed: ${String(again.error)}`);
    assert.equal((await readRun(stateDir, s.runId)).runId, s.runId);
  });
}

/** The 1-based index of the `nth` operation matching `re`. */
function opAt(ops: string[], re: RegExp, nth = 1): number {
  let seen = 0;
  const i = ops.findIndex((op) => re.test(op) && ++seen === nth);
  assert.ok(i >= 0, `no operation ${re} (#${nth}) in: ${ops.join('; ')}`);
  return i + 1;
}

/** Creates a run, saves once (the journal), then saves a state big enough to be compacted. */
async function createSaveCompact(stateDir: string, s: ReturnType<typeof sampleState>): Promise<void> {
  const h = await createRun(stateDir, s);
  s.turns = 1;
  await h.save(s, SavePoint.RunStarted);
  s.messages.push({ role: 'user', content: 'x'.repeat(1_100_000) });
  await h.save(s, SavePoint.ReplyArrived);
  await h.close();
}

for (const how of MODELS) {
  test(`killed after a compaction's rename, then a power cut after the next process saved: the save is there (${how})`, async (t) => {
    const probeRoot = tempDir(t);
    const probe = await new PowerCutDisk(probeRoot, how).life(() => createSaveCompact(path.join(probeRoot, 'state'), sampleState(undefined, 'compact-run')));
    assert.equal(probe.error, undefined);
    const renameAt = opAt(probe.ops, /^rename .*\.tmp -> state\/runs\/compact-run\.json$/, 2); // 1: creation, 2: the compaction

    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const killed = await disk.life(() => createSaveCompact(stateDir, sampleState(undefined, 'compact-run')), { killAfter: renameAt });
    assert.ok(killed.error instanceof SimulatedCrash && !killed.cut);
    const second = await disk.life(async (power) => {
      const { handle, state } = await openRun(stateDir, 'compact-run');
      state.turns = 9;
      await handle.save(state, SavePoint.RunStarted);
      power.cut(); // the save returned
      await handle.close();
    });
    assert.ok(second.cut);
    const back = await disk.life(() => readRun(stateDir, 'compact-run'));
    assert.equal(back.error, undefined, `the run after the reboot: ${String(back.error)}`);
    assert.equal(back.value?.turns, 9);
  });

  test(`a blob a killed process left unsynced is synced before a later write relies on it (${how})`, async (t) => {
    const bytes = Buffer.from('the agent wrote this\n');
    const putAndKeep = async (stateDir: string, s: ReturnType<typeof sampleState>): Promise<void> => {
      const h = await createRun(stateDir, s);
      await h.putBlob(bytes);
      await h.close();
    };
    const probeRoot = tempDir(t);
    const probe = await new PowerCutDisk(probeRoot, how).life(() => putAndKeep(path.join(probeRoot, 'state'), sampleState(undefined, 'blob-run')));
    const renameAt = opAt(probe.ops, /^rename state\/blobs\/\..*\.tmp -> state\/blobs\/[0-9a-f]{64}$/);

    const root = tempDir(t);
    const stateDir = path.join(root, 'state');
    const disk = new PowerCutDisk(root, how);
    const killed = await disk.life(() => putAndKeep(stateDir, sampleState(undefined, 'blob-run')), { killAfter: renameAt });
    assert.ok(killed.error instanceof SimulatedCrash && !killed.cut);
    let sha = '';
    await disk.life(async (power) => {
      const { handle, state } = await openRun(stateDir, 'blob-run');
      sha = await handle.putBlob(bytes); // already there: the same bytes
      state.files = { 'a.txt': { sha256: sha, size: bytes.length, callId: 'call_1', writtenAt: new Date().toISOString() } };
      await handle.save(state, SavePoint.ResultSaved);
      power.cut();
      await handle.close();
    });
    const back = await disk.life(async () => {
      const { handle, state } = await openRun(stateDir, 'blob-run');
      try {
        return { recorded: state.files?.['a.txt']?.sha256, blob: await handle.getBlob(sha) };
      } finally {
        await handle.close();
      }
    });
    assert.equal(back.error, undefined, String(back.error));
    assert.equal(back.value?.recorded, sha);
    assert.deepEqual(back.value?.blob, bytes, 'the blob the ledger names is in the content store');
  });
}

for (const how of MODELS) {
  test(`a tree copied with copyTreeDurable is all there after a power cut right after (${how})`, async (t) => {
    const src = tempDir(t);
    fs.mkdirSync(path.join(src, 'src', 'lib'), { recursive: true });
    fs.writeFileSync(path.join(src, 'package.json'), '{"name": "x"}\n');
    fs.writeFileSync(path.join(src, 'src', 'lib', 'a.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(src, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const root = tempDir(t);
    const dest = path.join(root, 'state', 'workspaces', 'run-1');
    const disk = new PowerCutDisk(root, how);
    const life = await disk.life(async (power) => {
      await copyTreeDurable(src, dest);
      power.cut();
    });
    assert.ok(life.cut);
    assert.equal(fs.readFileSync(path.join(dest, 'package.json'), 'utf8'), '{"name": "x"}\n');
    assert.equal(fs.readFileSync(path.join(dest, 'src', 'lib', 'a.js'), 'utf8'), 'module.exports = 1;\n');
    assert.equal(fs.statSync(path.join(dest, 'run.sh')).mode & 0o777, 0o755);
    await assert.rejects(
      disk.life(() => copyTreeDurable(src, dest)).then((l) => Promise.reject(l.error)),
      /EEXIST/,
      'never over an existing folder',
    );
  });
}
