/**
 * The effects sweep (test/sweep/effects/): the scripted Sentry -> issue -> commit -> push and pull
 * request -> Sentry comment run crashed in process (1 and 2 crashes) and by SIGKILL, keys on and
 * off, compared with the saved table: a change in any count fails. After an intended change,
 * regenerate it with `npm run build && npm run --silent sweep:effects > test/data/sweep-effects.txt`
 * (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { effectsRows, LEAN_PLAN } from './effects/sweep';
import { formatEffectsTable } from './effects/table';
import { assertSweepZeros, sweepNotes } from './rows';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep-effects.txt');

test('the effects sweep (commit, push, pull request, Sentry comment) matches the saved table', { timeout: 900_000 }, async () => {
  const t = await effectsRows(LEAN_PLAN);
  assert.equal(formatEffectsTable(t.rows, t.notes), fs.readFileSync(SAVED, 'utf8'), sweepNotes(t.rows));
  // What the sweep exists to show, whatever the saved copy says: with keys on, no side effect twice and nobody asked.
  assertSweepZeros(t.rows);
  for (const r of t.rows) assert.deepEqual(r.extra, { issues: 0, commits: 0, pulls: 0, comments: 0 }, `${r.kind} keys ${r.keys ? 'on' : 'off'} (${r.crashes})`);
});
