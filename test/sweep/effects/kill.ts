/**
 * The effects sweep by SIGKILL: the first life a real process (child.ts, syncs on) that kills
 * itself at the chosen crash point; then the same run again until it is done, here (a restart
 * reads only what the killed process left on disk and in the services). The stand-ins and the
 * bare remote live in this process and on disk, so they outlive the kill.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countLog } from '../../../src/sweep/kill';
import { checkAcks } from '../../../src/sweep/acks';
import { judgeEffects, makeWorld } from './world';
import type { EffectsChildConfig } from './child';
import { loggedLife } from './life';
import type { Outcome } from './inprocess';

const MAX_LIVES = 6;
const CHILD = path.join(__dirname, 'child.js');

interface LifeEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  points: number;
  phase?: string;
  stderr: string;
}

function runChild(cfg: EffectsChildConfig): Promise<LifeEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const lines = out.trim().split('\n').filter(Boolean);
      const last = lines.length ? (JSON.parse(lines[lines.length - 1]) as { points: number; phase?: string }) : { points: 0 };
      resolve({ code, signal, points: last.points, ...(last.phase ? { phase: last.phase } : {}), stderr: err });
    });
  });
}

function readLog(file: string): ReturnType<typeof countLog> & { runId?: string } {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const run = /"t":"run","runId":"([^"]+)"/.exec(text);
  return { ...countLog(text), ...(run ? { runId: run[1] } : {}) };
}

/** One scenario: SIGKILL at point `crashAt` of the first life (0: a clean run, which must finish), then lives until done. */
export async function killScenario(template: string, dir: string, keys: boolean, crashAt: number): Promise<Outcome> {
  const w = await makeWorld(template, dir);
  try {
    const cfg: EffectsChildConfig = { places: w.places, state: w.state, keys, crashAt, log: path.join(dir, 'log.jsonl') };
    const first = await runChild(cfg);
    if (crashAt > 0 && first.signal !== 'SIGKILL')
      throw new Error(`the effects child was to die at point ${crashAt} but ended with ${first.code}: ${first.stderr}`);
    let finished = first.phase === 'done';
    if (crashAt === 0 && !finished) throw new Error(`the effects sweep's clean child run failed: ${first.stderr}`);
    let ackLost = false;
    let runLost = false;
    let blocked: string | undefined;
    for (let life = 1; life < MAX_LIVES && !finished && blocked === undefined; life++) {
      const before = readLog(cfg.log);
      if (before.runId !== undefined) {
        const check = await checkAcks(w.state, before.runId, before.acks);
        ackLost ||= check.lost;
        runLost ||= check.runLost;
      }
      try {
        finished = (await loggedLife(cfg)) === 'done';
        if (!finished) blocked = 'the run did not finish';
      } catch (e) {
        blocked = String(e);
      }
    }
    const counts = readLog(cfg.log);
    const j = judgeEffects(w, finished);
    const extra = j.duplicates;
    return {
      points: [first.points],
      names: [],
      finished,
      duplicates: extra.issues + extra.commits + extra.pulls + extra.comments,
      extra,
      paidTwice: counts.paidTwice,
      questions: counts.questions,
      failedChecks: j.failedChecks,
      ackLost,
      runLost,
      where: `SIGKILL at point ${crashAt}${j.failedChecks.length ? ` (failing: ${j.failedChecks.join('; ')})` : ''}`,
      ...(blocked !== undefined ? { blocked } : {}),
    };
  } finally {
    await w.close();
  }
}
