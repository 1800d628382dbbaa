/**
 * The run's event record (issue 13) in the PostgreSQL store: the job records a run's history
 * there as it does beside the checkpoints, the transcript reads it back the same, an unreadable
 * row is skipped and counted, and deleting the run deletes its record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { PgRunStore } from '../../src/store/pg/pg-run-store';
import { FileRunStore } from '../../src/store/files/file-run-store';
import { runTriage } from '../../src/triage/job';
import { TerminalApprover } from '../../src/cli/terminal-approver';
import { loadTranscript } from '../../src/transcript/load';
import { abandonRun } from '../../src/triage/run-admin';
import { freshDatabase } from './support';

const TASK = 'cart-unknown-coupon';

async function types(at: string | PgRunStore, runId: string): Promise<string[]> {
  const log = await (typeof at === 'string' ? new FileRunStore(at) : at).events().read(runId);
  return log.events.map((e) => e.type);
}

test('a run on PostgreSQL records the same history a run on files does; deleting the run deletes it', { timeout: 120_000 }, async () => {
  const url = await freshDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-events-'));
  const store = new PgRunStore(url, { workspacesDir: path.join(dir, 'pg-workspaces') });
  try {
    const onPg = await runTriage({ runStore: store, task: TASK, approver: new TerminalApprover('yes'), store: { sync: false } });
    const onFiles = await runTriage({ stateDir: path.join(dir, 'state'), task: TASK, approver: new TerminalApprover('yes'), store: { sync: false } });
    assert.equal(onPg.result.phase, 'done');
    const pgTypes = await types(store, onPg.runId);
    assert.deepEqual(pgTypes, await types(path.join(dir, 'state'), onFiles.runId));
    assert.ok(pgTypes.includes('opened') && pgTypes.includes('checks'), pgTypes.join(', '));
    const t = await loadTranscript(store, onPg.runId);
    assert.equal(t.notes.length, 0, t.notes.join('\n'));

    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`INSERT INTO triage_run_events (run_id, line) VALUES ($1, '{"v":99,"type":"from-the-future"}')`, [onPg.runId]);
      const log = await store.events().read(onPg.runId);
      assert.equal(log.skipped, 1);
      assert.equal(log.events.length, pgTypes.length);
      await abandonRun(store, onPg.runId);
      const left = await c.query('SELECT count(*)::int AS n FROM triage_run_events WHERE run_id = $1', [onPg.runId]);
      assert.equal(left.rows[0].n, 0);
    } finally {
      await c.end();
    }
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
