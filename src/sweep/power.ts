/**
 * The power-loss sweep: the scripted job runs once with the tracing I/O layer to count the
 * changes it makes to the disk (state folder and workspace); then, for each change k, from
 * scratch: run, cut the power right after change k, replace the disk with what survives
 * (disk-model.ts: 'undo' or 'keep'), reboot (a new boot ID and boot time), check that what was
 * acknowledged before the cut is there, run the same command again, finish and count. The
 * tracker is a separate machine that kept its power. Every life runs through the model, which
 * also checks that no change bypassed the I/O layer.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { SimulatedCrash } from './simulated-crash';
import type { RunState } from '../store/state';
import { readRun } from '../store/files/checkpoint';
import { openStateFolder } from '../store/open-store';
import type { CutModel } from './disk-model';
import { PowerCutDisk } from './power-cut';
import { newRunId } from '../agent/idempotency-key';
import { toolSet } from '../agent/tool';
import type { LoopEvent } from '../agent/loop';
import { triageTools } from '../tools';
import { startTracker } from '../tracker/service';
import { TrackerClient } from '../tracker/client';
import { writeSweepWorkspace, ScriptedModel, ScriptedPerson, newCounters, judgeSweep, noteSavedReply, sweepCommand, SWEEP_TASK } from './job';
import { addOutcome, emptyRow, type ScenarioOutcome, type SweepRow } from './table';
import { checkAcks, newAcks, noteAck } from './acks';

interface PowerOutcome extends ScenarioOutcome {
  /** Changes the first life made (all of them, when it was not cut). */
  ops: number;
}

async function runScenario(root: string, how: CutModel, keys: boolean, cutAfter: number | undefined, idx: number): Promise<PowerOutcome> {
  const dir = path.join(root, `s${idx}`);
  const disk = path.join(dir, 'disk');
  const stateDir = path.join(disk, 'state');
  const workspace = path.join(disk, 'ws');
  await writeSweepWorkspace(workspace);
  const svc = await startTracker({ dir: path.join(dir, 'tracker'), port: 0, host: '127.0.0.1' });
  const tracker = new TrackerClient(svc.url);
  const c = newCounters();
  const acks = newAcks();
  const runId = newRunId(SWEEP_TASK);
  const power = new PowerCutDisk(disk, how);
  const command = () =>
    sweepCommand({
      runStore: openStateFolder(stateDir),
      runId,
      workspace,
      keys,
      onEvent: (e: LoopEvent) => {
        noteSavedReply(c, e);
        noteAck(acks, e);
      },
      parts: (st: RunState) => {
        acks.created = true;
        return {
          model: new ScriptedModel(c),
          tools: toolSet(triageTools({ tracker, keys: st.config.keys })),
          approver: new ScriptedPerson(c, tracker, workspace),
        };
      },
      limits: { maxRestarts: 10 },
    });
  try {
    const first = await power.life(command, cutAfter === undefined ? {} : { cutAfter });
    const where = `power cut after change ${cutAfter ?? '-'} (${first.ops[first.ops.length - 1] ?? 'none'})`;
    if (cutAfter !== undefined && !first.cut) throw new Error(`the power was to be cut after change ${cutAfter}, but the run made only ${first.ops.length}`);
    if (first.error !== undefined && !(first.error instanceof SimulatedCrash))
      throw new Error(`${where}: the first life failed before the cut: ${String(first.error)}`);
    let finished = first.value?.phase === 'done';
    const check = first.cut ? await checkAcks(stateDir, runId, acks) : { lost: false, runLost: false };
    let blocked: string | undefined;
    if (first.cut) {
      const second = await power.life(command);
      if (second.error !== undefined) blocked = String(second.error);
      finished = second.value?.phase === 'done';
    }
    const state = await readRun(stateDir, runId).catch(() => undefined);
    const j = await judgeSweep(state, workspace, tracker);
    return {
      ops: first.ops.length,
      finished,
      duplicates: j.duplicates,
      paidTwice: c.paidTwice,
      questions: c.questions,
      failedChecks: j.failedChecks,
      ackLost: check.lost,
      runLost: check.runLost,
      where,
      ...(blocked !== undefined ? { blocked } : {}),
    };
  } finally {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The power-loss sweep for one model of the disk and one keys setting: one row, a cut after each change of a clean run. */
export async function powerSweep(how: CutModel, keys: boolean, onProgress?: (done: number) => void): Promise<SweepRow[]> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-powersweep-'));
  try {
    let n = 0;
    const clean = await runScenario(root, how, keys, undefined, n++);
    if (!clean.finished || clean.failedChecks.length) throw new Error(`the power sweep's clean run failed: ${clean.failedChecks.join(', ')}`);
    const row = emptyRow(how === 'undo' ? 'power-undo' : 'power-keep', keys, 1);
    for (let k = 1; k <= clean.ops; k++) {
      addOutcome(row, await runScenario(root, how, keys, k, n++));
      onProgress?.(n);
    }
    return [row];
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
