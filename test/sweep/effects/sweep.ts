/**
 * The effects sweep's rows (test/data/sweep-effects.txt): the scripted Sentry -> issue -> commit ->
 * pull request -> Sentry comment run (script.ts), crashed in process (1 crash, then 2: the second
 * during the restart) and by SIGKILL of a real process (1 crash), keys on then off, each scenario
 * judged by counting the real things (world.ts).
 *
 * Which points: a plan. `every: 1` is every crash point of the run (each save point, inside each
 * checkpoint write, between each tool acting and its result being saved) for every row, and the
 * double crashes at every point of each restart. A scenario costs seconds (some 40 git processes
 * and two stand-ins), so the saved table uses a lean plan: every point where a tool has acted and
 * its result is not saved yet (tool:acted: where a side effect can be done twice) and every
 * `every`-th of the others; double crashes: the first crash at each tool:acted point, the second
 * at every `doubleEvery`-th point of the restart.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeIo, useIo } from '../../../src/disk/io';
import { TOOL_ACTED } from '../../../src/store/crash-points';
import { inProcessScenario, scenarioDir, type Outcome } from './inprocess';
import { killScenario } from './kill';
import { addEffects, emptyEffectsRow, type EffectsRow } from './table';
import { makeTemplate } from './world';

export interface EffectsPlan {
  /** Single crashes (in process and SIGKILL): every tool:acted point and every this-many-th other point (1: every point; 0: the tool:acted points only). */
  every: number;
  /** Double crashes: the second crash at every this-many-th point of the restart (1: every point). */
  doubleEvery: number;
  /** Double crashes: the first crash at every point (true), or at the tool:acted points only. */
  doubleAtEveryPoint: boolean;
  /** Scenarios run at once. */
  concurrency: number;
}

/** The saved table's plan (about three minutes here, see the test). */
export const LEAN_PLAN: EffectsPlan = { every: 0, doubleEvery: 50, doubleAtEveryPoint: false, concurrency: 3 };
/** Every point, 1 and 2 crashes (an hour or more on a loaded machine). */
export const FULL_PLAN: EffectsPlan = { every: 1, doubleEvery: 1, doubleAtEveryPoint: true, concurrency: 3 };

/** The points (1-based) a single crash lands on: the tool:acted ones and every `every`-th. */
export function chosenPoints(names: string[], every: number): number[] {
  return names.map((n, i) => i + 1).filter((p) => names[p - 1].startsWith(TOOL_ACTED) || (every > 0 && (p - 1) % every === 0));
}

/** Runs `jobs` with at most `n` at once, results in order. */
async function pool<T>(n: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
  return out;
}

function rowOf(outcomes: Outcome[], row: EffectsRow): EffectsRow {
  for (const o of outcomes) addEffects(row, o);
  return row;
}

/** The plan in words, for the table's notes. */
function planText(plan: EffectsPlan, names: string[], singles: number[], firsts: number[]): string {
  const acted = names.filter((n) => n.startsWith(TOOL_ACTED)).length;
  const single =
    plan.every === 1 ? 'every point' : plan.every === 0 ? `every ${TOOL_ACTED} point` : `every ${TOOL_ACTED} point and every ${plan.every}th other point`;
  const first = plan.doubleAtEveryPoint ? 'every point' : `each ${TOOL_ACTED} point`;
  const second = plan.doubleEvery === 1 ? 'every point' : `every ${plan.doubleEvery}th point`;
  return `${names.length} crash points (${acted} ${TOOL_ACTED}); 1 crash at ${singles.length} (${single}); 2 crashes: the first at ${firsts.length} (${first}), the second at ${second} of the restart`;
}

export interface EffectsTable {
  rows: EffectsRow[];
  /** Which points, per keys setting. */
  notes: string[];
}

export async function effectsRows(plan: EffectsPlan, onProgress?: (line: string) => void): Promise<EffectsTable> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-effects-'));
  // A SimulatedCrash keeps the page cache, so syncs would only cost time (the children sync).
  const prevIo = useIo(nodeIo({ syncs: false }));
  let n = 0;
  const dir = (): string => scenarioDir(root, n++);
  try {
    const template = makeTemplate(root);
    const rows: EffectsRow[] = [];
    const notes: string[] = [];
    for (const keys of [true, false]) {
      const clean = await inProcessScenario(template, dir(), keys, []);
      if (!clean.finished || clean.failedChecks.length)
        throw new Error(`the effects sweep's clean run failed: ${clean.blocked ?? clean.failedChecks.join(', ')}`);
      const names = clean.names;
      const singles = chosenPoints(names, plan.every);
      const firsts = plan.doubleAtEveryPoint ? names.map((_, i) => i + 1) : singles.filter((p) => names[p - 1].startsWith(TOOL_ACTED));
      notes.push(`keys ${keys ? 'on' : 'off'}: ${planText(plan, names, singles, firsts)}`);
      onProgress?.(notes[notes.length - 1]);
      const one = await pool(
        plan.concurrency,
        singles.map((p) => () => inProcessScenario(template, dir(), keys, [p])),
      );
      rows.push(rowOf(one, emptyEffectsRow('in-process', keys, 1)));
      onProgress?.(`in-process keys ${keys ? 'on' : 'off'} 1: ${one.length} scenarios`);
      const restarts = new Map(singles.map((p, i) => [p, one[i].points[1] ?? 0]));
      const doubles: (() => Promise<Outcome>)[] = [];
      for (const p of firsts) {
        const restart = restarts.get(p) ?? (await inProcessScenario(template, dir(), keys, [p])).points[1] ?? 0;
        for (let q = 1; q <= restart; q += plan.doubleEvery) doubles.push(() => inProcessScenario(template, dir(), keys, [p, q]));
      }
      rows.push(rowOf(await pool(plan.concurrency, doubles), emptyEffectsRow('in-process', keys, 2)));
      onProgress?.(`in-process keys ${keys ? 'on' : 'off'} 2: ${doubles.length} scenarios`);
      const killed = await pool(
        plan.concurrency,
        singles.map((p) => () => killScenario(template, dir(), keys, p)),
      );
      rows.push(rowOf(killed, emptyEffectsRow('sigkill', keys, 1)));
      onProgress?.(`sigkill keys ${keys ? 'on' : 'off'} 1: ${killed.length} scenarios`);
    }
    return { rows, notes };
  } finally {
    useIo(prevIo);
    fs.rmSync(root, { recursive: true, force: true });
  }
}
