/**
 * A fleet on a real PostgreSQL server, through the CLI: runs enqueued, taken by workers
 * (`FOR UPDATE SKIP LOCKED`: each run by exactly one), a run paused for an approval stays
 * paused in the store until a person answers (`triage answer`, as the editor does), then a
 * worker continues it; status, show and tracker list read the same store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTask } from '../../src/triage/tasks/catalog';
import { copyTreeDurable } from '../../src/disk/durable-copy';
import { BIN, lastJson, triage } from '../cli/support';
import { freshDatabase } from './support';

const TASK = 'cart-unknown-coupon';

function triageAsync(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

async function copyOfSample(): Promise<string> {
  const ws = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ws-')), 'ws');
  await copyTreeDurable(findTask(TASK).sample, ws);
  return ws;
}

type WorkerRuns = { runs: { runId: string; ended: string }[] };

test('two workers share three enqueued runs: each run is taken once and finished, none restarted', { timeout: 180_000 }, async () => {
  const url = await freshDatabase();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = triage(['enqueue', '--store', url, '--task', TASK, '--workspace', await copyOfSample(), '--json']);
    assert.equal(r.status, 0, r.stderr);
    ids.push(lastJson<{ runId: string }>(r.stdout).runId);
  }
  const ends = await Promise.all([0, 1].map(() => triageAsync(['worker', '--store', url, '--exit-when-idle', '--approve', 'yes', '--json'])));
  const taken = ends.flatMap((e) => {
    assert.equal(e.code, 0, e.err);
    return lastJson<WorkerRuns>(e.out).runs;
  });
  assert.deepEqual(taken.map((r) => r.runId).sort(), [...ids].sort(), 'each run taken exactly once');
  assert.ok(
    taken.every((r) => r.ended === 'done'),
    JSON.stringify(taken),
  );
  const status = lastJson<{ runs: { runId: string; phase: string; restarts: number }[] }>(triage(['status', '--store', url, '--json']).stdout);
  assert.deepEqual(
    status.runs.map((r) => [r.phase, r.restarts]),
    [
      ['done', 0],
      ['done', 0],
      ['done', 0],
    ],
  );
  const issues = lastJson<{ issues: { runId: string }[] }>(triage(['tracker', 'list', '--store', url, '--json']).stdout).issues;
  assert.deepEqual(issues.map((i) => i.runId).sort(), [...ids].sort(), "one issue per run, in the database's tracker");
});

test('a run paused for an approval stays paused in the store; answered, a worker continues it', { timeout: 180_000 }, async () => {
  const url = await freshDatabase();
  const ws = await copyOfSample();
  const runId = lastJson<{ runId: string }>(triage(['enqueue', '--store', url, '--task', TASK, '--workspace', ws, '--json']).stdout).runId;
  const first = await triageAsync(['worker', '--store', url, '--exit-when-idle', '--json']);
  assert.equal(first.code, 0, first.err);
  assert.deepEqual(
    lastJson<WorkerRuns>(first.out).runs.map((r) => r.ended),
    ['paused'],
  );
  // Nobody answered: no worker takes it.
  const idle = await triageAsync(['worker', '--store', url, '--exit-when-idle', '--json']);
  assert.deepEqual(lastJson<WorkerRuns>(idle.out).runs, []);
  const shown = lastJson<{ phase: string; pending: { kind: string; callId: string; tool: string }[] }>(
    triage(['show', '--store', url, '--run', runId, '--json']).stdout,
  );
  assert.equal(shown.phase, 'paused');
  const q = shown.pending[0];
  assert.equal(q.tool, 'issue_file');
  const wrong = triage(['answer', '--store', url, '--run', runId, '--call', 'no-such-call', '--approve']);
  assert.equal(wrong.status, 2, 'an answer to a question the run does not wait on is refused');
  const ok = triage(['answer', '--store', url, '--run', runId, '--call', q.callId, '--approve']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(triage(['answer', '--store', url, '--run', runId, '--call', q.callId, '--deny']).status, 2, 'the first answer stands');
  const second = await triageAsync(['worker', '--store', url, '--exit-when-idle', '--json']);
  assert.deepEqual(
    lastJson<WorkerRuns>(second.out).runs.map((r) => r.ended),
    ['done'],
    second.err,
  );
  const done = triage(['run', '--store', url, '--task', TASK, '--workspace', ws, '--json']);
  assert.equal(done.status, 0, done.stderr);
  const j = lastJson<{ finishedBefore: boolean; restarts: number; checks: { failed: string[] }; issues: unknown[] }>(done.stdout);
  assert.equal(j.finishedBefore, true);
  assert.equal(j.restarts, 0, 'a life that goes on from an answered question is not a restart');
  assert.deepEqual(j.checks.failed, []);
  assert.equal(j.issues.length, 1);
});

test('a store that cannot be reached is a StoreUnavailableError (exit 12) naming it without its password', () => {
  const r = triage(['status', '--store', 'postgres://triage:secret@127.0.0.1:9/nowhere']);
  assert.equal(r.status, 12, r.stderr);
  assert.match(r.stderr, /postgres:\/\/triage:\*\*\*@127\.0\.0\.1:9\/nowhere cannot be used/);
  assert.doesNotMatch(r.stderr, /secret/);
});
