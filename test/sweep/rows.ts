/** What every row of the crash sweep must show, whatever its saved table says. */
import assert from 'node:assert/strict';
import type { SweepRow } from '../../src/sweep/table';

export function sweepNotes(rows: SweepRow[]): string {
  return rows.flatMap((r) => r.notes.map((n) => `${r.kind} keys ${r.keys ? 'on' : 'off'}: ${n}`)).join('\n');
}

export function assertSweepZeros(rows: SweepRow[]): void {
  const notes = sweepNotes(rows);
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
}
