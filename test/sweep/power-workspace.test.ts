/**
 * A file the agent wrote is on disk, with the bytes its ledger records, after a power cut
 * that came once the call's result was saved; the resume goes on instead of stopping with
 * WorkspaceChangedError. The sweep's own scripted job, with the disk model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { newState, type RunState } from '../../src/store/state';
import { readRun } from '../../src/store/files/checkpoint';
import { SavePoint } from '../../src/store/save-points';
import { PowerCutDisk } from '../../src/sweep/power-cut';
import type { CutModel } from '../../src/sweep/disk-model';
import { startRun, resumeRun } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import type { LoopEvent } from '../../src/agent/loop';
import { triageTools } from '../../src/tools';
import { startTracker } from '../../src/tracker/service';
import { TrackerClient } from '../../src/tracker/client';
import { writeSweepWorkspace, ScriptedModel, ScriptedPerson, newCounters, judgeSweep, SWEEP_TASK } from '../../src/sweep/job';
import { openStore } from '../../src/store/open-store';

for (const how of ['keep', 'undo'] as CutModel[]) {
  for (const tool of ['code_patch', 'write_file']) {
    test(`a power cut after ${tool}'s result was saved leaves the file its ledger records (${how})`, async (t) => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'power-ws-'));
      t.after(() => fs.rm(dir, { recursive: true, force: true }));
      const root = path.join(dir, 'disk');
      const stateDir = path.join(root, 'state');
      const workspace = path.join(root, 'ws');
      await writeSweepWorkspace(workspace);
      const svc = await startTracker({ dir: path.join(dir, 'tracker'), port: 0, host: '127.0.0.1' });
      t.after(() => svc.close());
      const tracker = new TrackerClient(svc.url);
      const c = newCounters();
      const parts = (st: RunState) => ({
        model: new ScriptedModel(c),
        tools: toolSet(triageTools({ tracker, keys: st.config.keys })),
        approver: new ScriptedPerson(c, tracker, workspace),
      });
      const state = newState({
        runId: `power-${how}-${tool}`,
        task: SWEEP_TASK,
        config: { workspace, provider: 'scripted', model: 'scripted', keys: true },
        system: 'Triage the crash.',
        prompt: 'Triage crashes/.',
      });
      const disk = new PowerCutDisk(root, how);

      const first = await disk.life(async (power) => {
        let wrote = false;
        const onEvent = (e: LoopEvent): void => {
          if (e.type === 'tool-end' && e.call.name === tool) wrote = true;
          if (wrote && e.type === 'saved' && e.point === SavePoint.ResultSaved) power.cut();
        };
        return startRun({ runStore: openStore(stateDir), state, parts, onEvent, limits: { maxRestarts: 10 } });
      });
      assert.ok(first.cut, 'the power was cut');

      const second = await disk.life(() => resumeRun({ runStore: openStore(stateDir), runId: state.runId, parts, limits: { maxRestarts: 10 } }));
      assert.equal(second.error, undefined, `the resume stopped: ${String(second.error)}`);
      assert.equal(second.value?.phase, 'done');
      const j = await judgeSweep(await readRun(stateDir, state.runId), workspace, tracker);
      assert.deepEqual(j, { duplicates: 0, failedChecks: [] });
    });
  }
}
