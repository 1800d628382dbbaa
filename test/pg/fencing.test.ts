/**
 * Fencing, with real processes on a real server. Worker A runs the cart task with a 1.5 s lease
 * and is frozen (SIGSTOP) past it; worker B (`triage worker`) takes the run over and finishes
 * it; A is resumed (SIGCONT) and goes on from where it froze: nothing it does lands (it stops
 * with LockCompromisedError; the run's rows, the tracker and the workspace are as B left them),
 * and the run is finished once, with one issue for its one crash group and every check passing.
 * The partition variant cuts A's connection instead of freezing A: its heartbeat gets no
 * answer, it stops; its save, held by the network, reaches the server after B took over and is
 * refused by the lease token.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { sharedLocalPg } from '../../tools/pg/local-server';
import { findTask } from '../../src/triage/tasks/catalog';
import { copyTreeDurable } from '../../src/disk/durable-copy';
import { sha256Hex } from '../../src/core/sha256';
import type { FrozenChildConfig } from './helpers/frozen-child';
import { partitionProxy } from './helpers/partition-proxy';
import { BIN, lastJson, triage } from '../cli/support';

const TASK = 'cart-unknown-coupon';
const LEASE_MS = 1500;
const CHILD = path.join(__dirname, 'helpers', 'frozen-child.js');

interface Child {
  pid: number;
  /** Ends A whatever state it is in (a failed test must not leave it stopped, holding the test process open). */
  kill(): void;
  /** Resolves once A has stopped itself. */
  stopped: Promise<void>;
  exited: Promise<Record<string, unknown>>;
}

function startA(cfg: FrozenChildConfig): Child {
  const c = spawn(process.execPath, [CHILD, JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onStop: () => void;
  // Resolved once A is really stopped: it says so just before it sends itself SIGSTOP, so a
  // SIGCONT sent on the word alone could come first and be lost.
  const stopped = new Promise<void>((resolve) => (onStop = resolve)).then(async () => {
    while (!(await isStopped(c.pid!))) await new Promise((r) => setTimeout(r, 10));
  });
  c.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('"stopping"')) onStop();
  });
  c.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<Record<string, unknown>>((resolve, reject) =>
    c.on('close', (code) => {
      try {
        resolve(lastJson(out));
      } catch {
        reject(new Error(`A ended (${code}) without its JSON line: ${out}\n${err}`));
      }
    }),
  );
  return {
    pid: c.pid!,
    stopped,
    exited,
    kill: () => {
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  };
}

async function isStopped(pid: number): Promise<boolean> {
  const stat = await fs.promises.readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

function workerB(url: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'worker', '--store', url, '--exit-when-idle', '--approve', 'yes', '--lease-ms', String(LEASE_MS), '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

/** What the database and the workspace hold: compared before and after A is let loose again. */
async function picture(url: string, workspace: string): Promise<string> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const runs = await c.query('SELECT run_id, phase, seq, snapshot_seq, md5(snapshot) AS snap FROM triage_runs ORDER BY run_id');
    const records = await c.query('SELECT run_id, seq, md5(record) AS rec FROM triage_run_records ORDER BY run_id, seq');
    const issues = await c.query('SELECT number, cause, key FROM triage_issues ORDER BY number');
    const blobs = await c.query('SELECT sha256 FROM triage_blobs ORDER BY sha256');
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files.push(`${path.relative(workspace, p)} ${sha256Hex(fs.readFileSync(p))}`);
      }
    };
    walk(workspace);
    return JSON.stringify({ runs: runs.rows, records: records.rows, issues: issues.rows, blobs: blobs.rows, files: files.sort() }, null, 1);
  } finally {
    await c.end();
  }
}

async function workspaceCopy(): Promise<string> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'fence-ws-'));
  fs.rmSync(ws, { recursive: true });
  await copyTreeDurable(findTask(TASK).sample, ws);
  return ws;
}

/**
 * Resolves once the server has no session on the run's database but this one: A's and B's are
 * gone (both processes have exited; the partition's late bytes were delivered). A backend ends
 * only after the statement it was running committed or rolled back and it read the end of its
 * connection, so from then on nothing A sent can still land. Observed, not waited out: whatever
 * A sent, late or not, is in the database (or was refused) when this returns.
 */
async function othersGone(url: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    for (;;) {
      const r = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      if (r.rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await c.end();
  }
}

function finishedOnce(url: string, workspace: string): void {
  const r = triage(['run', '--store', url, '--task', TASK, '--workspace', workspace, '--approve', 'no', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = lastJson<{ finishedBefore: boolean; modelCalls: number; checks: { passed: number; total: number; failed: string[] }; issues: { cause: string }[] }>(
    r.stdout,
  );
  assert.equal(j.finishedBefore, true, 'B finished the run; this is only its saved result');
  assert.equal(j.modelCalls, 0);
  assert.deepEqual(j.checks.failed, []);
  assert.equal(j.checks.passed, j.checks.total);
  assert.equal(j.issues.length, 1, 'one issue for the one crash group');
}

for (const [stopAt, tool, what] of [
  ['before-act', 'code_patch', 'about to patch a file'],
  ['after-act', 'issue_file', 'about to save that it filed an issue'],
] as const) {
  test(`worker A frozen past its lease, ${what}: B finishes the run, nothing A does after it is resumed lands`, { timeout: 120_000 }, async () => {
    const pg = await sharedLocalPg();
    const url = await pg.createDatabase();
    const workspace = await workspaceCopy();
    let a: Child | undefined;
    try {
      a = startA({ url, workspace, task: TASK, leaseMs: LEASE_MS, tool, stopAt });
      await a.stopped;
      assert.ok(await isStopped(a.pid), 'A is frozen');
      await new Promise((r) => setTimeout(r, LEASE_MS + 500)); // past A's lease
      const b = await workerB(url);
      assert.equal(b.code, 0, b.err);
      const bRuns = lastJson<{ runs: { ended: string }[] }>(b.out).runs;
      assert.deepEqual(
        bRuns.map((r) => r.ended),
        ['done'],
        b.err,
      );
      const before = await picture(url, workspace);
      process.kill(a.pid, 'SIGCONT');
      const aEnd = await a.exited;
      assert.equal(aEnd.code, 'lock-compromised', JSON.stringify(aEnd));
      await othersGone(url);
      assert.equal(await picture(url, workspace), before, 'nothing A did after it was resumed landed');
      finishedOnce(url, workspace);
    } finally {
      a?.kill();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
}

test('partition: A loses its connection; it stops, and its save that arrives after B took over is refused', { timeout: 120_000 }, async () => {
  const pg = await sharedLocalPg();
  const direct = await pg.createDatabase();
  const db = /^postgres:\/\/[^/]*\/([^?]+)/.exec(direct)![1];
  const proxy = await partitionProxy(pg.socketDir, pg.port);
  const workspace = await workspaceCopy();
  let a: Child | undefined;
  try {
    a = startA({ url: proxy.url(db), workspace, task: TASK, leaseMs: LEASE_MS, tool: 'code_patch', stopAt: 'before-act' });
    await a.stopped; // only to cut at a known point: A is let go again at once
    proxy.cut();
    process.kill(a.pid, 'SIGCONT');
    const aEnd = await a.exited; // A patches (it still held the lease), then its save and heartbeat get no answer
    assert.equal(aEnd.code, 'lock-compromised', JSON.stringify(aEnd));
    await new Promise((r) => setTimeout(r, LEASE_MS + 500));
    const b = await workerB(direct);
    assert.equal(b.code, 0, b.err);
    assert.deepEqual(
      lastJson<{ runs: { ended: string }[] }>(b.out).runs.map((r) => r.ended),
      ['done'],
      b.err,
    );
    const before = await picture(direct, workspace);
    const late = proxy.heal();
    assert.ok(late > 0, "A's save was held by the partition and is delivered now");
    await othersGone(direct); // the server has read A's late save to its end and answered it
    assert.equal(await picture(direct, workspace), before, 'the late save landed nothing');
    finishedOnce(direct, workspace);
  } finally {
    a?.kill();
    await proxy.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
