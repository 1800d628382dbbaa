/**
 * The in-process crash sweep: run the scripted job once to find every point where a
 * crash could land (each save point, inside each checkpoint write, between a tool acting
 * and its result being saved), then for each point run from scratch, crash there
 * (SimulatedCrash: the lock is released as a dying process's would be, nothing more is
 * saved), restart (checking first that what was acknowledged is there), finish, and count.
 * Then again with a second crash during the restart. A restart that stops with an error is
 * counted as blocked.
 * Syncs are off (the store's and the I/O layer's), so it runs in seconds; the `--kill` sweep
 * does the same with SIGKILL.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { SimulatedCrash } from './simulated-crash';
import { nodeIo, useIo } from '../disk/io';
import type { CrashHook } from '../store/crash-points';
import type { RunState } from '../store/state';
import { readRun } from '../store/files/checkpoint';
import { openStateFolder } from '../store/open-store';
import { newRunId } from '../agent/idempotency-key';
import { toolSet } from '../agent/tool';
import type { LoopEvent } from '../agent/loop';
import { triageTools } from '../tools';
import { startTracker } from '../tracker/service';
import { TrackerClient } from '../tracker/client';
import {
  writeSweepWorkspace,
  ScriptedModel,
  ScriptedPerson,
  newCounters,
  judgeSweep,
  noteSavedReply,
  sweepCommand,
  SWEEP_TASK,
  type SweepCounters,
} from './job';
import { addOutcome, emptyRow, type ScenarioOutcome, type SweepRow, type SweepKind } from './table';
import { checkAcks, checkAcksWith, newAcks, noteAck } from './acks';
import type { PgRunStore } from '../store/pg/pg-run-store';
import { pgProbe } from './pg-probe';
import { inPool, SCENARIOS_AT_ONCE } from './pool';

const MAX_LIVES = 6;

interface Scenario {
  /** Crash at the N-th point of each life, in order; lives past the list run clean. */
  crashes: number[];
}

interface InProcessOutcome extends ScenarioOutcome {
  /** Points passed in each life. */
  points: number[];
}

/** Where the runs of a sweep go: the scenario's own state folder, or (one run ID each) a PostgreSQL store. */
interface SweepStore {
  pg?: PgRunStore;
}

async function runScenario(root: string, keys: boolean, sc: Scenario, idx: number, into: SweepStore = {}): Promise<InProcessOutcome> {
  const dir = path.join(root, `s${idx}`);
  const stateDir = path.join(dir, 'state');
  const workspace = path.join(dir, 'ws');
  await writeSweepWorkspace(workspace);
  const svc = await startTracker({ dir: path.join(dir, 'tracker'), port: 0, host: '127.0.0.1' });
  const tracker = new TrackerClient(svc.url);
  const c: SweepCounters = newCounters();
  const acks = newAcks();
  const runId = newRunId(SWEEP_TASK);
  const points: number[] = [];
  let finished = false;
  let ackLost = false;
  let runLost = false;
  let blocked: string | undefined;
  try {
    for (let life = 0; life < MAX_LIVES && !finished && blocked === undefined; life++) {
      if (life > 0) {
        const check = into.pg ? await checkAcksWith(pgProbe(into.pg), runId, acks) : await checkAcks(stateDir, runId, acks);
        ackLost ||= check.lost;
        runLost ||= check.runLost;
      }
      let passed = 0;
      const crashAt = sc.crashes[life];
      const crash: CrashHook = (point) => {
        passed++;
        if (passed === crashAt) throw new SimulatedCrash(point);
      };
      const onEvent = (e: LoopEvent): void => {
        noteSavedReply(c, e);
        noteAck(acks, e);
      };
      const parts = (st: RunState) => {
        acks.created = true;
        return {
          model: new ScriptedModel(c),
          tools: toolSet(triageTools({ tracker, keys: st.config.keys })),
          approver: new ScriptedPerson(c, tracker, workspace),
        };
      };
      try {
        const r = await sweepCommand({
          runStore: into.pg ?? openStateFolder(stateDir),
          runId,
          workspace,
          keys,
          store: { sync: false },
          crash,
          onEvent,
          parts,
          limits: { maxRestarts: 10 },
        });
        finished = r.phase === 'done';
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) blocked = String(e);
      } finally {
        points.push(passed);
      }
    }
    const state = await (into.pg ? into.pg.readRun(runId) : readRun(stateDir, runId)).catch(() => undefined);
    const j = await judgeSweep(state, workspace, tracker);
    const where = `crashes at points ${sc.crashes.join(', ')}`;
    return {
      points,
      finished,
      duplicates: j.duplicates,
      paidTwice: c.paidTwice,
      questions: c.questions,
      failedChecks: j.failedChecks,
      ackLost,
      runLost,
      where,
      ...(blocked !== undefined ? { blocked } : {}),
    };
  } finally {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the whole in-process sweep for one keys setting: single crashes, then double crashes.
 * With `pg`, the runs go to that PostgreSQL store (rows "pg-in-process"), and the second crash
 * of a double-crash scenario only lands on every `doubleEvery`-th point of the restart (all of
 * them by default), to keep the rows lean: a save there costs a round trip to the server.
 */
export async function inProcessSweep(
  keys: boolean,
  onProgress?: (done: number) => void,
  o: { pg?: PgRunStore; doubleEvery?: number; parallel?: number } = {},
): Promise<SweepRow[]> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-sweep-'));
  // A SimulatedCrash keeps the page cache, so syncs would only cost time (the workspace tools' too).
  const prevIo = useIo(nodeIo({ syncs: false }));
  try {
    let n = 0;
    const where: SweepStore = o.pg ? { pg: o.pg } : {};
    const kind = o.pg ? 'pg-in-process' : 'in-process';
    const every = o.doubleEvery ?? 1;
    const clean = await runScenario(root, keys, { crashes: [] }, n++, where);
    if (!clean.finished || clean.failedChecks.length) throw new Error(`the sweep's clean run failed: ${clean.blocked ?? clean.failedChecks.join(', ')}`);
    const total = clean.points[0];
    const single = emptyRow(kind, keys, 1);
    const double = emptyRow(kind, keys, 2);
    for (let i = 1; i <= total; i++) {
      const one = await runScenario(root, keys, { crashes: [i] }, n++, where);
      addOutcome(single, one);
      onProgress?.(n);
      const restartPoints = one.points[1] ?? 0;
      // The second crashes of one first crash are independent scenarios (each its own folder,
      // tracker and run): a few at a time fill the time each spends waiting on the file system
      // and the tracker's HTTP. Added to the row in order, so the row and its notes are as serial.
      const seconds: number[] = [];
      for (let j = 1; j <= restartPoints; j += every) seconds.push(j);
      const outcomes = await inPool(
        seconds.map((j) => () => {
          const idx = n++;
          return runScenario(root, keys, { crashes: [i, j] }, idx, where).finally(() => onProgress?.(idx + 1));
        }),
        o.parallel ?? SCENARIOS_AT_ONCE,
      );
      for (const out of outcomes) addOutcome(double, out);
    }
    return [single, double];
  } finally {
    useIo(prevIo);
    await fs.rm(root, { recursive: true, force: true });
  }
}

export type { SweepKind };
