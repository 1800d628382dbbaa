/**
 * A run's state from its PostgreSQL rows: the snapshot, with the records after it applied in
 * order (replay.ts), each record checked as a journal line is (its checksum, its shape). The
 * rows come from ONE statement, so a save or a compaction by another process is either all in
 * what it read or not at all; nothing is ever torn.
 */
import { CorruptCheckpointError } from '../../core/errors';
import { verifyLine, type JournalRecord } from '../files/journal-record';
import { replay } from '../files/replay';
import { decodeSnapshot } from '../files/snapshot';
import type { RunState } from '../state';

/** The columns every load selects (with `r` the run's row). */
export const RUN_COLUMNS = `r.run_id, r.snapshot, r.snapshot_seq, r.seq, r.started,
  (SELECT coalesce(array_agg(x.record ORDER BY x.seq), '{}') FROM triage_run_records x WHERE x.run_id = r.run_id AND x.seq > r.snapshot_seq) AS records`;

export interface RunRow {
  run_id: string;
  snapshot: Buffer;
  snapshot_seq: string | number;
  seq: string | number;
  started: boolean;
  records: Buffer[];
}

export interface LoadedPgRun {
  state: RunState;
  seq: number;
  snapshotBytes: number;
  recordBytes: number;
  /** A worker had started it (false: enqueued and never run). */
  started: boolean;
}

/** How a run's rows are named in messages. */
export function runWhere(where: string, runId: string): string {
  return `${where} (run ${runId})`;
}

export function decodeRunRow(where: string, row: RunRow): LoadedPgRun {
  const name = runWhere(where, row.run_id);
  const snap = decodeSnapshot(row.snapshot.toString('utf8'), `${name}, its snapshot`);
  if (snap.seq !== Number(row.snapshot_seq)) {
    throw new CorruptCheckpointError(name, `its snapshot holds save ${snap.seq}, but the row says ${row.snapshot_seq}`);
  }
  const records: JournalRecord[] = [];
  let recordBytes = 0;
  row.records.forEach((line, i) => {
    const v = verifyLine(line);
    if (!v.ok) throw new CorruptCheckpointError(name, `record ${i + 1} after the snapshot ${v.reason}`);
    records.push(v.record);
    recordBytes += line.length + 1;
  });
  for (let i = 1; i < records.length; i++) {
    if (records[i].seq !== records[i - 1].seq + 1) throw new CorruptCheckpointError(name, `save ${records[i].seq} follows save ${records[i - 1].seq}`);
  }
  const r = replay(snap, records, { snapshot: `${name}, its snapshot`, journal: `${name}, its records` }, row.run_id);
  if (r.stale || r.seq !== Number(row.seq)) throw new CorruptCheckpointError(name, `its rows hold save ${r.seq}, but the run is at save ${row.seq}`);
  return { state: r.state, seq: r.seq, snapshotBytes: row.snapshot.length, recordBytes, started: row.started };
}
