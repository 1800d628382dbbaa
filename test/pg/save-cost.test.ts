/**
 * What a save costs the database (issue 19): its update of the run's row is a HOT update (no
 * index names a column it sets, also when the phase changes, as it does on nearly every save),
 * it is sent as a prepared statement, and a database made by an older version is migrated to
 * the index that allows it with its runs intact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { PgRunStore } from '../../src/store/pg/pg-run-store';
import { APPEND_SQL, type PgRunHandle } from '../../src/store/pg/pg-run-handle';
import { MIGRATIONS } from '../../src/store/pg/migrations';
import { newState } from '../../src/store/state';
import { StateEdit } from '../../src/store/state-edit';
import { SavePoint } from '../../src/store/save-points';
import { encodeSnapshot } from '../../src/store/files/snapshot';
import { freshDatabase } from './support';

function state(runId: string) {
  return newState({ runId, task: 't', config: { workspace: '/ws', provider: 'p', model: 'm', keys: true }, system: 's', prompt: 'go' });
}

async function withClient<T>(url: string, f: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

test("a save's update of the run's row is a HOT update, also when the phase changes", async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const h = (await store.createRun(state('hot'))) as PgRunHandle;
    const counts = await withClient(url, async (c) => {
      await c.query('BEGIN');
      // The save's own statement, phase model -> tools; the transaction's counters are read before it ends.
      const r = await c.query(APPEND_SQL, ['hot', h.lease.token, 1, Buffer.from('{"seq":1}'), 'tools', []]);
      assert.equal(r.rowCount, 1, 'the record was inserted under the fence');
      const n = await c.query<{ upd: string; hot: string }>(
        "SELECT pg_stat_get_xact_tuples_updated('triage_runs'::regclass) AS upd, pg_stat_get_xact_tuples_hot_updated('triage_runs'::regclass) AS hot",
      );
      await c.query('ROLLBACK');
      return n.rows[0];
    });
    assert.deepEqual(counts, { upd: '1', hot: '1' });
    await h.close();
  } finally {
    await store.close();
  }
});

test('a save is sent as a prepared statement, under its name', async () => {
  const url = await freshDatabase();
  const store = new PgRunStore(url);
  try {
    const s = state('prep');
    const h = await store.createRun(s);
    const sent: Array<string | undefined> = [];
    const query = store.db.query.bind(store.db);
    store.db.query = ((sql: string, params?: unknown[], name?: string) => {
      if (sql.includes('triage_run_records')) sent.push(name);
      return query(sql, params, name);
    }) as typeof store.db.query;
    const e = new StateEdit(s);
    for (let i = 0; i < 3; i++) {
      e.push({ role: 'assistant', text: `reply ${i}` });
      await h.save(e, SavePoint.ReplyArrived);
    }
    await h.close();
    assert.deepEqual(sent, ['triage_save_append', 'triage_save_append', 'triage_save_append']);
    assert.equal((await store.readRun('prep')).messages.length, 4);
  } finally {
    await store.close();
  }
});

test('a database at schema version 2 is migrated: its runs kept, the runnable index on "done", a worker still claims', async () => {
  const url = await freshDatabase();
  // The schema as version 2 left it, with runs in it as version 2's store inserted them: one queued, one done.
  await withClient(url, async (c) => {
    await c.query('CREATE TABLE triage_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())');
    for (const m of MIGRATIONS.filter((x) => x.version <= 2)) {
      await c.query(m.sql);
      await c.query('INSERT INTO triage_migrations (version) VALUES ($1)', [m.version]);
    }
    for (const [id, phase] of [
      ['queued', 'model'],
      ['finished', 'done'],
    ] as const) {
      const s = state(id);
      s.phase = phase;
      await c.query(
        `INSERT INTO triage_runs (run_id, task, workspace, created_at, phase, started, waiting, snapshot, snapshot_seq, seq)
         VALUES ($1, 't', '/ws', $2, $3, false, '{}', $4, 0, 0)`,
        [id, s.createdAt, phase, Buffer.from(encodeSnapshot(0, s))],
      );
    }
  });
  const store = new PgRunStore(url);
  try {
    const claimed = await store.claimNext();
    assert.equal(claimed?.state.runId, 'queued', 'the queued run is claimed, the done one is not');
    assert.equal(await store.claimNext(), undefined, 'nothing else is runnable while it is held');
    await claimed!.handle.close();
    await withClient(url, async (c) => {
      const at = await c.query<{ v: number }>('SELECT max(version) AS v FROM triage_migrations');
      assert.equal(at.rows[0].v, 3);
      const idx = await c.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'triage_runs' ORDER BY indexname",
      );
      assert.deepEqual(
        idx.rows.map((r) => r.indexname),
        ['triage_runs_open', 'triage_runs_pkey'],
      );
      assert.ok(!/phase/.test(idx.rows.map((r) => r.indexdef).join(' ')), 'no index names phase');
      const done = await c.query('SELECT run_id, done FROM triage_runs ORDER BY run_id');
      assert.deepEqual(done.rows, [
        { run_id: 'finished', done: true },
        { run_id: 'queued', done: false },
      ]);
    });
  } finally {
    await store.close();
  }
});
