/**
 * Key retention after a restart (issue 10, section 3): a keyed filing acted, the process died
 * before its result was saved, and the resumed process (whose tracker client has learnt
 * nothing) resumes after the tracker's short key retention has passed. The ladder must not
 * rerun on a key the tracker has already forgotten (that files the issue again): the
 * retention saved with the attempt marker says the key expired, so the lookup decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, resumeRun, type RunParts } from '../../../src/agent/runner';
import { toolSet } from '../../../src/agent/tool';
import type { LoopEvent } from '../../../src/agent/loop';
import { readRun } from '../../../src/store/files/checkpoint';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { TOOL_ACTED } from '../../../src/store/crash-points';
import { issueFileTool } from '../../../src/tools/issue-file';
import { startTracker } from '../../../src/tracker/service';
import { TrackerClient } from '../../../src/tracker/client';
import { reply, ScriptModel, Person, freshState, tmp } from '../../agent/support';
import { openStore } from '../../../src/store/open-store';

const ISSUE = { title: 'crash on delete', body: 'see crashes/x/1.txt', cause: 'x' };
const RETENTION_MS = 60_000;

test('a restart after the key retention: the marker carries the retention, so the ladder looks up instead of filing again', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  let clock = Date.parse('2026-12-03T09:00:00Z');
  const now = (): Date => new Date(clock);
  const svc = await startTracker({ dir: `${dir}/tracker`, port: 0, retentionMs: RETENTION_MS, now: () => clock });
  t.after(() => svc.close());
  const model = new ScriptModel([reply(0, [['issue_file', ISSUE]]), reply(1, [], 'filed #1')]);
  // Each life gets a new client, as a new process would: it has learnt nothing about the tracker.
  const parts = (): RunParts => ({ model, tools: toolSet([issueFileTool({ tracker: new TrackerClient(svc.url), keys: true })]), approver: new Person() });

  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('k1', dir),
      parts,
      now,
      crash: (p) => {
        if (p === TOOL_ACTED) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  const mid = await readRun(dir, 'k1');
  const marker = Object.values(mid.attempts ?? {})[0];
  assert.equal(marker?.retentionMs, RETENTION_MS, 'the retention the tracker declared is saved with the marker');
  assert.equal((await svc.store.list()).length, 1);

  clock += RETENTION_MS + 1_000; // the tracker has forgotten the key
  const events: LoopEvent[] = [];
  const r = await resumeRun({ runStore: openStore(dir), runId: 'k1', parts, now, onEvent: (e) => events.push(e) });
  assert.equal(r.phase, 'done');
  assert.deepEqual(
    (await svc.store.list()).map((i) => i.number),
    [1],
    'filed once: the expired key was not trusted for a rerun',
  );
  const ladder = events.filter((e) => e.type === 'ladder');
  assert.deepEqual(
    ladder.map((e) => e.type === 'ladder' && [e.step, e.outcome]),
    [['lookup', 'done']],
  );
});

test('a marker saved without a retention (an older checkpoint): the ladder asks the tracker, not a default', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  let clock = Date.parse('2026-12-03T09:00:00Z');
  const now = (): Date => new Date(clock);
  const svc = await startTracker({ dir: `${dir}/tracker`, port: 0, retentionMs: RETENTION_MS, now: () => clock });
  t.after(() => svc.close());
  const model = new ScriptModel([reply(0, [['issue_file', ISSUE]]), reply(1, [], 'filed #1')]);
  const parts = (): RunParts => ({ model, tools: toolSet([issueFileTool({ tracker: new TrackerClient(svc.url), keys: true })]), approver: new Person() });
  await assert.rejects(
    startRun({
      runStore: openStore(dir),
      state: freshState('k2', dir),
      parts,
      now,
      crash: (p) => {
        if (p === TOOL_ACTED) throw new SimulatedCrash(p);
      },
    }),
    SimulatedCrash,
  );
  // Rewrite the checkpoint as an older version would have saved it: the marker without retentionMs.
  const { openRun } = await import('../../../src/store/files/checkpoint');
  const { handle, state } = await openRun(dir, 'k2');
  for (const m of Object.values(state.attempts ?? {})) delete m.retentionMs;
  state.attempts = { ...state.attempts };
  await handle.save(state, 'workspace-accepted');
  await handle.close();
  assert.equal(Object.values((await readRun(dir, 'k2')).attempts ?? {})[0]?.retentionMs, undefined);

  clock += RETENTION_MS + 1_000;
  const r = await resumeRun({ runStore: openStore(dir), runId: 'k2', parts, now });
  assert.equal(r.phase, 'done');
  assert.deepEqual(
    (await svc.store.list()).map((i) => i.number),
    [1],
  );
});
