/**
 * The effects sweep in process: the scripted run once to count its crash points (each save
 * point, inside each checkpoint write, between a tool acting and its result being saved), then
 * per point a fresh world, a SimulatedCrash there (the lock released as a dying process's would
 * be, nothing more saved), the same runTriage again until the run is done, and the real things
 * counted. Double crashes: a second crash during the restart, at every `every`-th point of it.
 */
import * as path from 'node:path';
import { runTriage, type TriageRunOptions } from '../../../src/triage/job';
import type { CrashHook } from '../../../src/store/crash-points';
import type { LoopEvent } from '../../../src/agent/loop';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { newCounters, noteSavedReply } from '../../../src/sweep/job';
import { checkAcks, newAcks, noteAck } from '../../../src/sweep/acks';
import { EffectsModel, EffectsPerson, runOptions } from './script';
import { judgeEffects, makeWorld, type EffectCounts } from './world';
import type { ScenarioOutcome } from '../../../src/sweep/table';

const MAX_LIVES = 6;

export interface Outcome extends ScenarioOutcome {
  extra: EffectCounts;
  /** Crash points passed in each life. */
  points: number[];
  /** The names of the first life's crash points, in order. */
  names: string[];
}

/** One scenario: crash at the N-th point of each life, in order; lives past the list run clean. */
export async function inProcessScenario(template: string, dir: string, keys: boolean, crashes: number[]): Promise<Outcome> {
  const w = await makeWorld(template, dir);
  const c = newCounters();
  const acks = newAcks();
  const points: number[] = [];
  const names: string[] = [];
  let runId: string | undefined;
  let finished = false;
  let ackLost = false;
  let runLost = false;
  let blocked: string | undefined;
  try {
    for (let life = 0; life < MAX_LIVES && !finished && blocked === undefined; life++) {
      if (life > 0 && runId !== undefined) {
        const check = await checkAcks(w.state, runId, acks);
        ackLost ||= check.lost;
        runLost ||= check.runLost;
      }
      let passed = 0;
      const crashAt = crashes[life];
      const crash: CrashHook = (point, detail) => {
        passed++;
        if (life === 0) names.push(detail?.tool ? `${point} ${detail.tool}` : point);
        if (passed === crashAt) throw new SimulatedCrash(point);
      };
      const o: TriageRunOptions = {
        ...runOptions({ ...w.places, state: w.state }, keys),
        model: new EffectsModel(c),
        approver: new EffectsPerson(c, w.places),
        crash,
        store: { sync: false },
        onRunOpened: (id) => (runId = id),
        wrapModel: (m) => {
          acks.created = true; // the run's parts are asked for once its creation returned
          return m;
        },
        onEvent: (e: LoopEvent) => {
          noteSavedReply(c, e);
          noteAck(acks, e);
        },
      };
      try {
        const r = await runTriage(o);
        finished = r.result.phase === 'done';
        if (!finished) blocked = `the run stopped in phase ${r.result.phase}`;
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) blocked = String(e);
      } finally {
        points.push(passed);
      }
    }
    const j = judgeEffects(w, finished);
    const extra = j.duplicates;
    return {
      points,
      names,
      finished,
      duplicates: extra.issues + extra.commits + extra.pulls + extra.comments,
      extra,
      paidTwice: c.paidTwice,
      questions: c.questions,
      failedChecks: j.failedChecks,
      ackLost,
      runLost,
      where: `in process, crashes at points ${crashes.join(', ')}${j.failedChecks.length ? ` (failing: ${j.failedChecks.join('; ')})` : ''}`,
      ...(blocked !== undefined ? { blocked } : {}),
    };
  } finally {
    await w.close();
  }
}

export function scenarioDir(root: string, n: number): string {
  return path.join(root, `s${n}`);
}
