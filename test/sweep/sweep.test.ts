/**
 * The crash sweep, in-process and with real SIGKILLs, compared with the saved table:
 * a change in any count fails. After an intended change, regenerate it with
 * `node bin/triage.js sweep --kill > test/data/sweep.txt` (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inProcessSweep } from '../../src/triage/sweep/inprocess';
import { killSweep } from '../../src/triage/sweep/kill';
import { formatTable, type SweepRow } from '../../src/triage/sweep/table';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep.txt');

test('the crash sweep matches the saved table', { timeout: 900_000 }, async () => {
  const rows: SweepRow[] = [];
  for (const keys of [true, false]) rows.push(...(await inProcessSweep(keys)));
  for (const keys of [true, false]) rows.push(...(await killSweep(keys)));
  const table = formatTable(rows);
  assert.equal(table, fs.readFileSync(SAVED, 'utf8'));
  // What the sweep exists to show, whatever the saved copy says.
  for (const r of rows) {
    assert.equal(r.duplicates, 0, `${r.kind} keys ${r.keys}: duplicates`);
    assert.equal(r.paidTwice, 0, `${r.kind} keys ${r.keys}: replies paid twice`);
    assert.equal(r.unfinished, 0, `${r.kind} keys ${r.keys}: unfinished runs`);
    assert.equal(r.failing, 0, `${r.kind} keys ${r.keys}: failing checks`);
    if (r.keys) assert.equal(r.questions, 0, `${r.kind} keys on: a keyed call should never reach the person`);
  }
});
