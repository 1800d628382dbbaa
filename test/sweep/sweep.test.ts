/**
 * The crash sweep, in-process, with real SIGKILLs and with power cuts, compared with the saved
 * table: a change in any count fails. After an intended change, regenerate it with
 * `node bin/triage.js sweep --kill --power-loss > test/data/sweep.txt` (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sweepRows } from '../../src/sweep/sweeps';
import { formatTable } from '../../src/sweep/table';
import { assertSweepZeros, sweepNotes } from './rows';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep.txt');

test('the crash sweep matches the saved table', { timeout: 900_000 }, async () => {
  const rows = await sweepRows({ kill: true, power: true });
  const table = formatTable(rows);
  assert.equal(table, fs.readFileSync(SAVED, 'utf8'), sweepNotes(rows));
  // What the sweep exists to show, whatever the saved copy says.
  assertSweepZeros(rows);
});
