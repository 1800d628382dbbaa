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
import { pgSweepRows } from '../../src/sweep/sweeps';
import { formatTable } from '../../src/sweep/table';
import { assertSweepZeros, sweepNotes } from './rows';
import { freshDatabase } from '../pg/support';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep-pg.txt');

test('the crash sweep on PostgreSQL matches the saved table', { timeout: 900_000 }, async () => {
  const rows = await pgSweepRows(await freshDatabase());
  const table = formatTable(rows);
  assert.equal(table, fs.readFileSync(SAVED, 'utf8'), sweepNotes(rows));
  // What the sweep exists to show, whatever the saved copy says.
  assertSweepZeros(rows);
});
