/**
 * The PostgreSQL run store against a real server: create, save, reopen; the lease (a second
 * opener gets LockedError, an expired lease is taken over, a dead owner's at once); fencing (a
 * save or a blob after the lease was taken over lands nothing); migrations run once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { PgRunStore } from '../../src/store/pg/pg-run-store';
import type { PgRunHandle } from '../../src/store/pg/pg-run-handle';
import { newState } from '../../src/store/state';
import { StateEdit } from '../../src/store/state-edit';
import { SavePoint } from '../../src/store/save-points';
import { LockCompromisedError, LockedError, RunExistsError } from '../../src/core/errors';
import { COMPACT_MIN_BYTES } from '../../src/store/save-encoder';
import { freshDatabase } from './support';

function state(runId: string) {
  return newState({ runId, task: 't', config: { workspace: '/ws', provider: 'p', model: 'm', keys: true }, system: 's', prompt: 'go' });
}

async function sql(url: string, q: string, params: unknown[] = []) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(q, params);
  } finally {
    await c.end();
  }
}

test('a run saved record by record reads back whole; reopening continues the sequence', async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const s = state('r1');
    const h = await store.createRun(s);
    const e = new StateEdit(s);
    for (let i = 0; i < 5; i++) {
      e.push({ role: 'assistant', text: `reply ${i}` });
      e.set('turns', i + 1);
      await h.save(e, SavePoint.ReplyArrived);
    }
    await h.close();
    const back = await store.readRun('r1');
    assert.equal(back.turns, 5);
    assert.equal(back.messages.length, 6);
    const { handle, state: again } = await store.openRun('r1');
    const e2 = new StateEdit(again);
    e2.set('phase', 'done');
    await handle.save(e2, SavePoint.PausedOrDone);
    await handle.close();
    assert.equal((await store.readRun('r1')).phase, 'done');
    const rows = await sql(url, 'SELECT seq, snapshot_seq, started FROM triage_runs WHERE run_id = $1', ['r1']);
    assert.deepEqual(rows.rows[0], { seq: '6', snapshot_seq: '0', started: true });
    await assert.rejects(store.createRun(state('r1')), RunExistsError);
    const listed = await store.listRuns();
    assert.deepEqual(
      listed.map((l) => [l.runId, l.state?.phase, l.locked]),
      [['r1', 'done', false]],
    );
  } finally {
    await store.close();
  }
});

test('a journal that outgrows 1 MiB is compacted into the snapshot row in the same statement', async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const s = state('big');
    const h = await store.createRun(s);
    const e = new StateEdit(s);
    const chunk = 'x'.repeat(200_000);
    for (let i = 0; i < 7; i++) {
      e.push({ role: 'assistant', text: chunk });
      await h.save(e, SavePoint.ReplyArrived);
    }
    await h.close();
    const r = await sql(
      url,
      'SELECT snapshot_seq, seq, (SELECT count(*)::int FROM triage_run_records WHERE run_id = $1) AS n FROM triage_runs WHERE run_id = $1',
      ['big'],
    );
    const row = r.rows[0] as { snapshot_seq: string; seq: string; n: number };
    assert.ok(Number(row.snapshot_seq) > 0 && Number(row.snapshot_seq) <= 7, `compacted at some save (${row.snapshot_seq})`);
    assert.equal(row.n, 7 - Number(row.snapshot_seq), 'only the records after the snapshot remain');
    assert.ok(7 * 200_000 > COMPACT_MIN_BYTES);
    assert.equal((await store.readRun('big')).messages.length, 8);
  } finally {
    await store.close();
  }
});

test('a second opener gets LockedError at once; an expired lease is taken over at once', async () => {
  const url = await freshDatabase();
  const a = new PgRunStore(url);
  const b = new PgRunStore(url);
  try {
    // A's lease is long and A stops heartbeating (as a frozen process would): an opener that waited
    // the lease out would get the run, so b's LockedError shows it was refused without waiting.
    const held = await a.createRun(state('r2'), { staleMs: 60_000 });
    (held as PgRunHandle).lease.abandon();
    await assert.rejects(b.openRun('r2', { staleMs: 60_000 }), (e) => e instanceof LockedError && /pid \d+ on host/.test(e.message));

    // A short lease, abandoned, runs out by the database's clock; the next open takes it over.
    const h = await a.createRun(state('r3'), { staleMs: 1000 });
    (h as PgRunHandle).lease.abandon();
    for (;;) {
      const r = await sql(url, "SELECT lease_expires <= clock_timestamp() AS expired FROM triage_runs WHERE run_id = 'r3'");
      if (r.rows[0].expired === true) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const { handle } = await b.openRun('r3', { staleMs: 1000 });
    await handle.close();
  } finally {
    await a.close();
    await b.close();
  }
});

test('a lease whose holder on this host is dead is taken over at once', async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const h = await store.createRun(state('r3'));
    (h as PgRunHandle).lease.abandon();
    // Make the holder a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await sql(
      url,
      `UPDATE triage_runs SET lease_owner = jsonb_set(jsonb_set(lease_owner, '{pid}', to_jsonb($1::int)), '{startTime}', '"0"') WHERE run_id = 'r3'`,
      [Number(dead.stdout)],
    );
    const { handle } = await store.openRun('r3');
    await handle.close();
  } finally {
    await store.close();
  }
});

test('fencing: after another process took the lease over, a save and a blob land nothing', async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const s = state('r4');
    const h = (await store.createRun(s, { staleMs: 60_000 })) as PgRunHandle;
    const e = new StateEdit(s);
    e.set('turns', 1);
    await h.save(e, SavePoint.ReplyArrived);
    // Another process takes the lease over behind A's back (A's own clock still says it holds it).
    await sql(url, `UPDATE triage_runs SET lease_token = gen_random_uuid() WHERE run_id = 'r4'`);
    assert.equal(h.lease.lost, undefined, 'A does not know yet');
    e.set('turns', 2);
    await assert.rejects(h.save(e, SavePoint.ReplyArrived), LockCompromisedError);
    await assert.rejects(h.putBlob(Buffer.from('late bytes')), LockCompromisedError);
    e.set('turns', 3);
    await assert.rejects(h.save(e, SavePoint.ReplyArrived), LockCompromisedError, 'and nothing after');
    const back = await sql(url, `SELECT seq, (SELECT count(*)::int FROM triage_blobs) AS blobs FROM triage_runs WHERE run_id = 'r4'`);
    assert.deepEqual(back.rows[0], { seq: '1', blobs: 0 });
    assert.equal((await store.readRun('r4')).turns, 1);
    await h.close();
  } finally {
    await store.close();
  }
});

test('migrations run once, and a second store on the same database finds the schema ready', async () => {
  const url = await freshDatabase();
  const stores = [new PgRunStore(url), new PgRunStore(url), new PgRunStore(url)];
  try {
    await Promise.all(stores.map((s) => s.listRuns()));
    const r = await sql(url, 'SELECT version FROM triage_migrations ORDER BY version');
    assert.deepEqual(r.rows, [{ version: 1 }, { version: 2 }, { version: 3 }]);
  } finally {
    for (const s of stores) await s.close();
  }
});
