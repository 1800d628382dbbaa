/**
 * What a save writes, whatever the store: the change since the previous save as one record
 * (journal-record.ts), numbered in sequence. Given a StateEdit, the record holds exactly the
 * changes it took; given the state itself, a full record (every message, every field, and the
 * removal of the fields saved before and gone now). updatedAt is set at the call.
 *
 * The file store appends the record to the run's journal; the PostgreSQL store inserts it as a
 * row. Both compact (write the whole state as the snapshot) by the same rule.
 */
import type { RunState } from './state';
import { StateEdit } from './state-edit';
import { encodeRecord, type RecordChange } from './files/journal-record';
import { encodeSnapshot } from './files/snapshot';

/** The journal is compacted when it would outgrow max(this, the snapshot's size). */
export const COMPACT_MIN_BYTES = 1024 * 1024;

/** One save, encoded: its record line (newline included), or, when the journal would grow too big, the new snapshot. */
export type EncodedSave =
  { kind: 'append'; seq: number; line: Buffer; state: RunState } | { kind: 'compaction'; seq: number; snapshot: Buffer; state: RunState };

export class SaveEncoder {
  /** The top-level fields as of the last save, so a full record can remove the ones that are gone. */
  private savedFields: Set<string> | undefined;
  private seq = 0;
  /** Journal and snapshot sizes once every encoded save is written. */
  private plannedJournal = 0;
  private plannedSnapshot = 0;

  get loaded(): boolean {
    return this.savedFields !== undefined;
  }

  /** Starts from a loaded run (save `seq`, with journal and snapshot of these sizes); `state` is the object the caller goes on changing. */
  begin(seq: number, journalBytes: number, snapshotBytes: number, state: RunState): void {
    this.seq = seq;
    this.plannedJournal = journalBytes;
    this.plannedSnapshot = snapshotBytes;
    this.savedFields = fieldsOf(state);
  }

  /** Encodes the next save (call only once loaded); a throw from here leaves the sequence ahead of the store. */
  next(edit: StateEdit | RunState): EncodedSave {
    const state = edit instanceof StateEdit ? edit.raw : edit;
    state.updatedAt = new Date().toISOString();
    const change = edit instanceof StateEdit ? edit.take() : fullChange(state, this.savedFields!);
    if (!change.set.some(([k]) => k === 'updatedAt')) change.set.push(['updatedAt', state.updatedAt]);
    this.savedFields = nextFields(this.savedFields!, change);
    const seq = ++this.seq;
    const line = encodeRecord(seq, change);
    if (this.plannedJournal + line.length > Math.max(COMPACT_MIN_BYTES, this.plannedSnapshot)) {
      const snapshot = Buffer.from(encodeSnapshot(seq, state));
      this.plannedJournal = 0;
      this.plannedSnapshot = snapshot.length;
      return { kind: 'compaction', seq, snapshot, state };
    }
    this.plannedJournal += line.length;
    return { kind: 'append', seq, line, state };
  }
}

/** Every set top-level field except messages. */
function fieldsOf(state: RunState): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(state)) if (k !== 'messages' && v !== undefined) out.add(k);
  return out;
}

/** A record that rewrites the whole state: every message, every field, and the removal of fields saved before and gone now. */
function fullChange(state: RunState, saved: Set<string>): RecordChange {
  const now = fieldsOf(state);
  const o = state as unknown as Record<string, unknown>;
  return { from: 0, messages: state.messages, set: [...now].map((k) => [k, o[k]]), patch: [], unset: [...saved].filter((k) => !now.has(k)) };
}

function nextFields(saved: Set<string>, c: RecordChange): Set<string> {
  const out = new Set(saved);
  for (const [k] of c.set) out.add(k);
  for (const [k] of c.patch) out.add(k);
  for (const k of c.unset) out.delete(k);
  return out;
}
