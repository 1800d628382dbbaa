/**
 * The crash sweep's PostgreSQL rows (in-process and SIGKILL, the runs in a real server's
 * database) compared with the saved table test/data/sweep-pg.txt: a change in any count fails.
 * Regenerate it with `node bin/triage.js sweep --pg postgres://... > test/data/sweep-pg.txt`
 * on an empty database (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pgSweepRows } from '../../src/triage/sweep/sweeps';
import { formatTable } from '../../src/triage/sweep/table';
import { freshDatabase } from '../pg/support';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep-pg.txt');

test('the crash sweep on PostgreSQL matches the saved table', { timeout: 900_000 }, async () => {
  const rows = await pgSweepRows(await freshDatabase());
  const table = formatTable(rows);
  const notes = rows.flatMap((r) => r.notes.map((n) => `${r.kind} keys ${r.keys ? 'on' : 'off'}: ${n}`)).join('\n');
  assert.equal(table, fs.readFileSync(SAVED, 'utf8'), notes);
  for (const r of rows) {
    const row = `${r.kind} keys ${r.keys ? 'on' : 'off'} (${r.crashes})`;
    assert.equal(r.duplicates, 0, `${row}: duplicates`);
    assert.equal(r.paidTwice, 0, `${row}: replies paid twice`);
    assert.equal(r.unfinished, 0, `${row}: unfinished runs`);
    assert.equal(r.failing, 0, `${row}: failing checks`);
    assert.equal(r.ackLost, 0, `${row}: acknowledged then lost\n${notes}`);
    assert.equal(r.blocked, 0, `${row}: blocked resumes\n${notes}`);
    assert.equal(r.lostRuns, 0, `${row}: lost runs\n${notes}`);
    if (r.keys) assert.equal(r.questions, 0, `${row}: a keyed call should never reach the person`);
  }
});
