/**
 * The current state of a run: its snapshot, with the journal's records after it applied in order.
 *
 * The journal belongs to the snapshot when its first record is the save right after the
 * snapshot's. When every record is older than the snapshot, the journal is stale (a compaction
 * replaced the snapshot and was stopped before it emptied the journal) and is ignored. Anything
 * else means the files do not belong together: CorruptCheckpointError.
 */
import { CorruptCheckpointError } from '../../core/errors';
import type { JournalRecord } from './journal-record';
import { validateIn, type Snapshot } from './snapshot';
import type { RunState } from '../state';

export interface Replayed {
  state: RunState;
  /** The save the state is: the last applied record's, or the snapshot's. */
  seq: number;
  /** Records applied. */
  applied: number;
  /** The journal holds only records older than the snapshot. */
  stale: boolean;
}

export interface RunFiles {
  snapshot: string;
  journal: string;
}

/** defineProperty, not assignment: a key such as "__proto__" (a file path, a call ID) stays an ordinary entry. */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Applies one record to `state` in place, as the loop changed it: messages cut to `from` and appended to, fields set and removed. */
export function applyRecord(state: RunState, r: JournalRecord, journal: string): void {
  const messages: unknown[] = state.messages;
  if (r.from > messages.length) {
    throw new CorruptCheckpointError(journal, `the record of save ${r.seq} keeps ${r.from} messages, but there are only ${messages.length}`);
  }
  messages.length = r.from;
  for (const m of r.messages) messages.push(m);
  const target = state as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(r.set)) define(target, k, v);
  for (const [k, entries] of Object.entries(r.patch)) {
    const o = Object.hasOwn(target, k) ? target[k] : undefined;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      throw new CorruptCheckpointError(journal, `the record of save ${r.seq} patches field "${k}", which holds no object`);
    }
    for (const [e, v] of Object.entries(entries)) define(o as Record<string, unknown>, e, v);
  }
  for (const k of r.unset) delete target[k];
}

/** Applies `records` to the snapshot's state (which it changes) and validates the result. */
export function replay(snap: Snapshot, records: JournalRecord[], files: RunFiles, runId: string): Replayed {
  if (snap.state.runId !== runId) throw new CorruptCheckpointError(files.snapshot, `it holds run ${JSON.stringify(snap.state.runId)}, not ${runId}`);
  if (records.length === 0) return { state: snap.state, seq: snap.seq, applied: 0, stale: false };
  const first = records[0].seq;
  const last = records[records.length - 1].seq;
  if (last < snap.seq) return { state: snap.state, seq: snap.seq, applied: 0, stale: true };
  if (first !== snap.seq + 1) {
    throw new CorruptCheckpointError(
      files.journal,
      `its records start at save ${first}, but the snapshot ${files.snapshot} holds save ${snap.seq}, so the two files do not belong together`,
    );
  }
  const state = snap.state;
  for (const r of records) applyRecord(state, r, files.journal);
  const out = validateIn(state, files.journal);
  if (out.runId !== runId) throw new CorruptCheckpointError(files.journal, `it changes the run to ${JSON.stringify(out.runId)}, not ${runId}`);
  return { state: out, seq: last, applied: records.length, stale: false };
}
