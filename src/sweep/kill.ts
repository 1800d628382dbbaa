/**
 * The SIGKILL sweep: the same scenarios as the in-process sweep, but each life is a real
 * child process with syncs on, and the crash is the child sending itself SIGKILL at the
 * chosen point. The tracker runs in the parent (the tracker never crashes); the children
 * log model requests, saved replies and questions to a file the parent counts from.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as fss from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRun } from '../store/files/checkpoint';
import { newRunId } from '../agent/idempotency-key';
import { startTracker } from '../tracker/service';
import { TrackerClient } from '../tracker/client';
import { writeSweepWorkspace, judgeSweep, SWEEP_TASK } from './job';
import { addOutcome, emptyRow, type ScenarioOutcome as Outcome, type SweepRow } from './table';
import { inPool, SCENARIOS_AT_ONCE } from './pool';
import { checkAcks, checkAcksWith, newAcks, type Acks } from './acks';
import type { PgRunStore } from '../store/pg/pg-run-store';
import { pgProbe } from './pg-probe';
import { nodeChildEnv } from '../runners/node-child';
import { sweepChildScript } from './child-script';

export interface ChildConfig {
  stateDir: string;
  /** A postgres:// URL: the run goes to that store instead of stateDir. */
  pgUrl?: string;
  workspace: string;
  trackerUrl: string;
  runId: string;
  keys: boolean;
  /** SIGKILL at the N-th crash point (1-based); 0 = run clean. */
  crashAt: number;
  log: string;
}

interface LifeEnd {
  signal: NodeJS.Signals | null;
  code: number | null;
  points: number;
  phase?: string;
  stderr: string;
}

/** The child's entry (child-script.ts): `sweep-child.js`, the bundle, when it is fresh, else tsc's `child.js`. */
function childScript(): string {
  return sweepChildScript('child.js', 'sweep-child.js');
}

function runChild(cfg: ChildConfig): Promise<LifeEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript(), JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'], env: nodeChildEnv() });
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

/**
 * Counts from the children's log: a request for a turn after that turn's reply was saved is a
 * reply paid twice; saves that returned and the run's creation are what was acknowledged.
 */
export function countLog(text: string): { paidTwice: number; questions: number; acks: Acks } {
  const saved = new Set<number>();
  let paidTwice = 0;
  let questions = 0;
  const acks = newAcks();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { t: string; turn?: number };
    if (e.t === 'request' && saved.has(e.turn!)) paidTwice++;
    if (e.t === 'saved-reply') saved.add(e.turn!);
    if (e.t === 'question') questions++;
    if (e.t === 'saved') acks.saves++;
    if (e.t === 'created') acks.created = true;
  }
  return { paidTwice, questions, acks };
}

async function readLog(file: string): Promise<ReturnType<typeof countLog>> {
  return countLog(fss.existsSync(file) ? await fs.readFile(file, 'utf8') : '');
}

/** The SIGKILL sweep for one keys setting; with `pg`, its runs go to that PostgreSQL store (row "pg-sigkill"). */
export async function killSweep(keys: boolean, onProgress?: (done: number) => void, o: { pg?: PgRunStore; parallel?: number } = {}): Promise<SweepRow[]> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-killsweep-'));
  const row = emptyRow(o.pg ? 'pg-sigkill' : 'sigkill', keys, 1);
  try {
    let done = 0;
    const scenario = async (crashAt: number): Promise<{ points: number; outcome?: Outcome }> => {
      const dir = path.join(root, `s${crashAt}`);
      const workspace = path.join(dir, 'ws');
      await writeSweepWorkspace(workspace);
      const svc = await startTracker({ dir: path.join(dir, 'tracker'), port: 0, host: '127.0.0.1' });
      try {
        const cfg: ChildConfig = {
          stateDir: path.join(dir, 'state'),
          ...(o.pg ? { pgUrl: o.pg.db.url } : {}),
          workspace,
          trackerUrl: svc.url,
          runId: newRunId(SWEEP_TASK),
          keys,
          crashAt,
          log: path.join(dir, 'log.jsonl'),
        };
        const first = await runChild(cfg);
        let finished = first.phase === 'done';
        if (crashAt > 0 && first.signal !== 'SIGKILL')
          throw new Error(`sweep child was to die at point ${crashAt} but ended with ${first.code}: ${first.stderr}`);
        if (crashAt === 0 && !finished) throw new Error(`the sweep's clean child run failed: ${first.stderr}`);
        if (crashAt === 0) return { points: first.points };
        let ackLost = false;
        let runLost = false;
        let blocked: string | undefined;
        for (let life = 1; life < 6 && !finished && blocked === undefined; life++) {
          const acks = (await readLog(cfg.log)).acks;
          const check = o.pg ? await checkAcksWith(pgProbe(o.pg), cfg.runId, acks) : await checkAcks(cfg.stateDir, cfg.runId, acks);
          ackLost ||= check.lost;
          runLost ||= check.runLost;
          const next = await runChild({ ...cfg, crashAt: 0 });
          if (next.code !== 0) blocked = next.stderr.trim().split('\n')[0] ?? `exit ${next.code}`;
          finished = next.phase === 'done';
        }
        const tracker = new TrackerClient(svc.url);
        const state = await (o.pg ? o.pg.readRun(cfg.runId) : readRun(cfg.stateDir, cfg.runId)).catch(() => undefined);
        const j = await judgeSweep(state, workspace, tracker);
        const counts = await readLog(cfg.log);
        onProgress?.(++done);
        return {
          points: first.points,
          outcome: {
            finished,
            duplicates: j.duplicates,
            paidTwice: counts.paidTwice,
            questions: counts.questions,
            failedChecks: j.failedChecks,
            ackLost,
            runLost,
            where: `SIGKILL at point ${crashAt}`,
            ...(blocked !== undefined ? { blocked } : {}),
          },
        };
      } finally {
        await svc.close();
        await fs.rm(dir, { recursive: true, force: true });
      }
    };
    const { points } = await scenario(0);
    // Each killed scenario is independent (its own folders, tracker, run and child processes):
    // a few at a time fill the time each spends starting a child and waiting on fsync or the
    // database. Added to the row in order, so the row and its notes are as a serial sweep's.
    const crashes = Array.from({ length: points }, (_, k) => k + 1);
    const ends = await inPool(
      crashes.map((i) => () => scenario(i)),
      o.parallel ?? SCENARIOS_AT_ONCE,
    );
    for (const end of ends) if (end.outcome) addOutcome(row, end.outcome);
    return [row];
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
