/**
 * 6. PostgreSQL: (a) save cost on the PostgreSQL store against its floor, and (b) runs finished
 * per minute by a fleet of 1, 2 and 4 workers on the batch task. The server is the real one
 * (tools/pg/local-server.ts: initdb into a temp folder, unix socket), with its defaults: fsync on,
 * synchronous_commit on, so every commit waits for its WAL flush.
 *
 * (a) Each of the batch task's real saves, through the store (one prepared statement: the fence,
 * the record or the compaction, one commit), side by side with the floor: one INSERT of the same
 * bytes in its own transaction (one commit, synchronous_commit = on) on a connection kept open,
 * sent as plain SQL (parsed and planned each time, as the store's saves were before issue 19)
 * and, a third contender, as a prepared statement (the store's saves are prepared too).
 * (b) 4 runs of batch-parser enqueued (each with its own copy of the sample), then W worker
 * processes (`triage worker --exit-when-idle --approve yes`) until every run is done.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { startLocalPg, type LocalPg } from '../tools/pg/local-server';
import { PgRunStore } from '../src/store/pg/pg-run-store';
import { StateEdit } from '../src/store/state-edit';
import { capture } from './save-overhead';
import { median, p99, rotated, timed } from './measure';
import type { Report } from './report';
import type { SaveScript } from './runs';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'triage.js');

async function saveCost(report: Report, pg: LocalPg, script: SaveScript, rounds: number): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-pg-save-'));
  const url = await pg.createDatabase('bench_save');
  const store = new PgRunStore(url);
  const floor = new Client({ connectionString: url });
  try {
    const ops = await capture(path.join(root, 'files'), script);
    await floor.connect();
    await floor.query('SHOW synchronous_commit').then((r) => {
      if (r.rows[0].synchronous_commit !== 'on') throw new Error('the floor needs synchronous_commit = on');
    });
    await floor.query('CREATE TABLE floor (n bigserial PRIMARY KEY, bytes bytea NOT NULL)');
    const saves: number[] = [];
    const floors: number[] = [];
    const prepared: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const s = script.initial(`pg-round-${r}`);
      const h = await store.createRun(s);
      const e = new StateEdit(s);
      const steps = script.steps();
      for (let i = 0; i < steps.length; i++) {
        const point = steps[i](e);
        const bytes = ops[i].kind === 'append' ? ops[i].bytes.subarray(0, ops[i].bytes.length - 1) : ops[i].bytes;
        await rotated(i + r, [
          async () => void saves.push(await timed(() => h.save(e, point))),
          async () => void floors.push(await timed(() => floor.query('INSERT INTO floor (bytes) VALUES ($1)', [bytes]))),
          async () => void prepared.push(await timed(() => floor.query({ name: 'floor', text: 'INSERT INTO floor (bytes) VALUES ($1)', values: [bytes] }))),
        ]);
      }
      await h.close();
    }
    const bench = 'postgres';
    report.add({
      bench,
      name: `${script.name}: PostgreSQL store, median per save`,
      value: median(saves),
      unit: 'ms',
      note: `${ops.length} saves x ${rounds} rounds; fsync on, synchronous_commit on, unix socket`,
    });
    report.add({ bench, name: `${script.name}: PostgreSQL store, p99 per save`, value: p99(saves), unit: 'ms' });
    report.add({ bench, name: `${script.name}: floor (one INSERT of the same bytes, one commit), median`, value: median(floors), unit: 'ms' });
    report.add({ bench, name: `${script.name}: floor, p99`, value: p99(floors), unit: 'ms' });
    report.add({ bench, name: `${script.name}: floor as a prepared statement, median`, value: median(prepared), unit: 'ms' });
    report.atMost(
      {
        bench,
        name: `${script.name}: ratio PostgreSQL store / floor, median`,
        value: median(saves) / median(floors),
        unit: 'x',
        note: `${((median(saves) - median(floors)) * 1000).toFixed(0)} us a save over the floor: the fencing UPDATE of the run's row (lease token, expiry by the database clock, the save number; a HOT update) in the same statement and commit, and encoding the record; the save is a prepared statement, the floor plain SQL`,
      },
      1.2,
    );
    report.add({
      bench,
      name: `${script.name}: ratio PostgreSQL store / prepared floor, median`,
      value: median(saves) / median(prepared),
      unit: 'x',
      note: "both prepared: what a save costs over one commit of the same bytes when neither is parsed (the fencing UPDATE, the records table's key and foreign key, the connection pool, encoding the record)",
    });
  } finally {
    await floor.end().catch(() => undefined);
    await store.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

function triage(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

async function fleet(report: Report, pg: LocalPg, workers: number, runs: number): Promise<number> {
  const url = await pg.createDatabase(`bench_fleet_${workers}`);
  const ws = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-fleet-'));
  try {
    for (let i = 0; i < runs; i++) {
      const r = await triage(['enqueue', '--store', url, '--workspaces', ws, '--task', 'batch-parser', '--json']);
      if (r.code !== 0) throw new Error(`enqueue failed: ${r.err}`);
    }
    let done = 0;
    const ms = await timed(async () => {
      const ends = await Promise.all(
        Array.from({ length: workers }, () => triage(['worker', '--store', url, '--exit-when-idle', '--approve', 'yes', '--quiet', '--json'])),
      );
      for (const e of ends) {
        if (e.code !== 0) throw new Error(`a worker failed: ${e.err}`);
        done += (JSON.parse(e.out.trim().split('\n').pop()!) as { runs: { ended: string }[] }).runs.filter((x) => x.ended === 'done').length;
      }
    });
    if (done !== runs) throw new Error(`${done} of ${runs} runs finished`);
    const perMinute = runs / (ms / 60_000);
    report.add({
      bench: 'postgres',
      name: `fleet of ${workers} worker${workers > 1 ? 's' : ''}: batch-parser runs finished per minute`,
      value: perMinute,
      unit: '/min',
      note: `${runs} runs in ${(ms / 1000).toFixed(1)} s`,
    });
    return perMinute;
  } finally {
    await fs.rm(ws, { recursive: true, force: true });
  }
}

export async function postgres(report: Report, script: SaveScript | undefined, progress: (s: string) => void): Promise<void> {
  let pg: LocalPg;
  try {
    pg = await startLocalPg();
  } catch (e) {
    report.add({ bench: 'postgres', name: 'PostgreSQL', value: null, unit: '', note: `no server: ${(e as Error).message}` });
    return;
  }
  try {
    if (script) {
      progress('postgres: save cost against one commit of the same bytes');
      await saveCost(report, pg, script, 5);
    }
    const rates: number[] = [];
    try {
      for (const w of [1, 2, 4]) {
        progress(`postgres: a fleet of ${w} worker(s) on 4 batch runs`);
        rates.push(await fleet(report, pg, w, 4));
      }
    } catch (e) {
      report.add({ bench: 'postgres', name: 'fleet', value: null, unit: '', note: `did not finish: ${(e as Error).message.split('\n')[0]}` });
      return;
    }
    report.add({
      bench: 'postgres',
      name: 'fleet speed-up, 2 / 4 workers over 1',
      value: rates[1] / rates[0],
      unit: 'x',
      note: `and ${(rates[2] / rates[0]).toFixed(2)}x with 4, on ${os.cpus().length} cores: a run is mostly CPU (its tests run in child processes), so workers past the core count only share them`,
    });
  } finally {
    pg.stop();
  }
}
