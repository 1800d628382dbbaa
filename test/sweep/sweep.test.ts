/**
 * The crash sweep, in-process, with real SIGKILLs and with power cuts, compared with the saved
 * table: a change in any count fails. After an intended change, regenerate it with
 * `node bin/triage.js sweep --kill --power-loss > test/data/sweep.txt` (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sweepRows } from '../../src/triage/sweep/sweeps';
import { formatTable } from '../../src/triage/sweep/table';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep.txt');

test('the crash sweep matches the saved table', { timeout: 900_000 }, async () => {
  const rows = await sweepRows({ kill: true, power: true });
  const table = formatTable(rows);
  const notes = rows.flatMap((r) => r.notes.map((n) => `${r.kind} keys ${r.keys ? 'on' : 'off'}: ${n}`)).join('\n');
  assert.equal(table, fs.readFileSync(SAVED, 'utf8'), notes);
  // What the sweep exists to show, whatever the saved copy says.
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
