/**
 * The effects sweep's rows (test/data/sweep-effects.txt): the scripted Sentry -> issue -> commit ->
 * pull request -> Sentry comment run (script.ts), crashed in process (1 crash, then 2: the second
 * during the restart) and by SIGKILL of a real process (1 crash), keys on then off, each scenario
 * judged by counting the real things (world.ts).
 *
 * Which points: a plan. FULL_PLAN is every crash point of the run (each save point, inside each
 * checkpoint write, between each tool acting and its result being saved) for every row, and the
 * second crash at every point of each restart. A scenario costs seconds (some 40 git processes,
 * two stand-ins, a full run), so the saved table uses LEAN_PLAN: the points between a tool acting
 * and its result being saved (tool:acted, where a side effect could be done twice), split between
 * the in-process and the SIGKILL rows, with double crashes after the in-process ones.
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

/** Which crash points of the run a row crashes at. */
export interface PointChoice {
  /** Of the tool:acted points (between a tool acting and its result being saved, where a side effect could be done twice): all, the odd ones (1st, 3rd...: each turn's first call, the first cause's) or the even ones (the second cause's). */
  acted: 'all' | 'odd' | 'even';
  /** And every this-many-th of the other points (1: every point; 0: none). */
  every: number;
}

export interface EffectsPlan {
  /** Single crashes in process. */
  inProcess: PointChoice;
  /** Single SIGKILLs. */
  sigkill: PointChoice;
  /** Double crashes: where the first one lands. */
  doubleFirst: PointChoice;
  /** Double crashes: the second at every this-many-th point of the restart (1: every point). */
  doubleEvery: number;
  /** Scenarios run at once. */
  concurrency: number;
}

/**
 * The saved table's plan, sized for about three minutes on a loaded 2-core machine: in process at
 * the odd tool:acted points (the first cause's issue_file, write_file, commit_fix, pull_request,
 * sentry_comment), by SIGKILL at the even ones (the second cause's), double crashes after each odd one.
 */
export const LEAN_PLAN: EffectsPlan = {
  inProcess: { acted: 'odd', every: 0 },
  sigkill: { acted: 'even', every: 0 },
  doubleFirst: { acted: 'odd', every: 0 },
  doubleEvery: 50,
  concurrency: 3,
};
/** Every point, 1 and 2 crashes (hours on a loaded machine). */
export const FULL_PLAN: EffectsPlan = {
  inProcess: { acted: 'all', every: 1 },
  sigkill: { acted: 'all', every: 1 },
  doubleFirst: { acted: 'all', every: 1 },
  doubleEvery: 1,
  concurrency: 3,
};

/** The points (1-based) a choice lands on, given the run's point names. */
export function chosenPoints(names: string[], c: PointChoice): number[] {
  let acted = 0;
  const out: number[] = [];
  names.forEach((n, i) => {
    const p = i + 1;
    const isActed = n.startsWith(TOOL_ACTED);
    if (isActed) acted++;
    const pick = isActed ? c.acted === 'all' || (c.acted === 'odd') === (acted % 2 === 1) : c.every > 0 && i % c.every === 0;
    if (pick) out.push(p);
  });
  return out;
}

function choiceText(c: PointChoice, names: string[]): string {
  const points = chosenPoints(names, c);
  if (c.every === 1) return `${points.length} (every point)`;
  const acted = c.acted === 'all' ? `every ${TOOL_ACTED} point` : `the ${c.acted} ${TOOL_ACTED} points`;
  return `${points.length} (${acted}${c.every > 0 ? ` and every ${c.every}th other point` : ''}: ${points.join(', ')})`;
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
function planText(plan: EffectsPlan, names: string[]): string {
  const acted = names.filter((n) => n.startsWith(TOOL_ACTED)).length;
  const second = plan.doubleEvery === 1 ? 'every point' : `every ${plan.doubleEvery}th point (1, ${1 + plan.doubleEvery}, ...)`;
  return [
    `${names.length} crash points (${acted} ${TOOL_ACTED})`,
    `in-process 1 crash at ${choiceText(plan.inProcess, names)}`,
    `in-process 2 crashes: the first at ${choiceText(plan.doubleFirst, names)}, the second at ${second} of the restart`,
    `sigkill at ${choiceText(plan.sigkill, names)}`,
  ].join('; ');
}

export interface EffectsTable {
  rows: EffectsRow[];
  /** Which points, per keys setting. */
  notes: string[];
}

export type EffectsRowName = 'in-process-1' | 'in-process-2' | 'sigkill';
export const ROW_NAMES: readonly EffectsRowName[] = ['in-process-1', 'in-process-2', 'sigkill'];

/** The rows of `plan` (or only the `rows` and `keys` settings given: a partial table, not the saved one). */
export async function effectsRows(
  plan: EffectsPlan,
  onProgress?: (line: string) => void,
  o: { keys?: readonly boolean[]; rows?: readonly EffectsRowName[] } = {},
): Promise<EffectsTable> {
  const want = (r: EffectsRowName): boolean => (o.rows ?? ROW_NAMES).includes(r);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-effects-'));
  // A SimulatedCrash keeps the page cache, so syncs would only cost time (the children sync).
  const prevIo = useIo(nodeIo({ syncs: false }));
  let n = 0;
  const dir = (): string => scenarioDir(root, n++);
  try {
    const template = makeTemplate(root);
    const rows: EffectsRow[] = [];
    const notes: string[] = [];
    for (const keys of o.keys ?? [true, false]) {
      const clean = await inProcessScenario(template, dir(), keys, []);
      if (!clean.finished || clean.failedChecks.length)
        throw new Error(`the effects sweep's clean run failed: ${clean.blocked ?? clean.failedChecks.join(', ')}`);
      const names = clean.names;
      const singles = chosenPoints(names, plan.inProcess);
      const firsts = chosenPoints(names, plan.doubleFirst);
      notes.push(`keys ${keys ? 'on' : 'off'}: ${planText(plan, names)}`);
      onProgress?.(notes[notes.length - 1]);
      const one =
        want('in-process-1') || want('in-process-2')
          ? await pool(
              plan.concurrency,
              singles.map((p) => () => inProcessScenario(template, dir(), keys, [p])),
            )
          : [];
      if (want('in-process-1')) rows.push(rowOf(one, emptyEffectsRow('in-process', keys, 1)));
      if (want('in-process-1')) onProgress?.(`in-process keys ${keys ? 'on' : 'off'} 1: ${one.length} scenarios`);
      const restarts = new Map(one.map((x, i) => [singles[i], x.points[1] ?? 0]));
      const doubles: (() => Promise<Outcome>)[] = [];
      for (const p of want('in-process-2') ? firsts : []) {
        const restart = restarts.get(p) ?? (await inProcessScenario(template, dir(), keys, [p])).points[1] ?? 0;
        for (let q = 1; q <= restart; q += plan.doubleEvery) doubles.push(() => inProcessScenario(template, dir(), keys, [p, q]));
      }
      if (want('in-process-2')) rows.push(rowOf(await pool(plan.concurrency, doubles), emptyEffectsRow('in-process', keys, 2)));
      if (want('in-process-2')) onProgress?.(`in-process keys ${keys ? 'on' : 'off'} 2: ${doubles.length} scenarios`);
      if (!want('sigkill')) continue;
      const killed = await pool(
        plan.concurrency,
        chosenPoints(names, plan.sigkill).map((p) => () => killScenario(template, dir(), keys, p)),
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
