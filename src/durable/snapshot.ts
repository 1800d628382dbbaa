/**
 * A run's snapshot: the whole state as of one save, one JSON document, replaced atomically
 * (temp file, fsync, rename, directory fsync) when the run is created and when its journal is
 * compacted. The journal's records after `seq` are applied on top of it.
 *
 *   {"kind":"durable-triage-snapshot","seq":12,"state":{ ...RunState... }}
 */
import { CorruptCheckpointError } from './errors';
import { encodeState, parseCheckpointJson, validateState, type RunState } from './state';

export const SNAPSHOT_KIND = 'durable-triage-snapshot';

export interface Snapshot {
  seq: number;
  state: RunState;
}

/** The snapshot text for save `seq` holding `state`. */
export function encodeSnapshot(seq: number, state: RunState): string {
  return `{"kind":"${SNAPSHOT_KIND}","seq":${seq},"state":${encodeState(state)}}`;
}

/** validateState, with any problem as a CorruptCheckpointError naming `file`. */
export function validateIn(raw: unknown, file: string): RunState {
  try {
    return validateState(raw);
  } catch (e) {
    throw new CorruptCheckpointError(file, (e as Error).message);
  }
}

/** Parses and validates snapshot text; any problem is a CorruptCheckpointError naming `file`. */
export function decodeSnapshot(text: string, file: string): Snapshot {
  const raw = parseCheckpointJson(text, file);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CorruptCheckpointError(file, 'it is not a JSON object');
  const o = raw as Record<string, unknown>;
  if (o.kind !== SNAPSHOT_KIND) {
    throw new CorruptCheckpointError(file, `field "kind" should be "${SNAPSHOT_KIND}", found ${JSON.stringify(o.kind) ?? 'nothing'}`);
  }
  if (typeof o.seq !== 'number' || !Number.isSafeInteger(o.seq) || o.seq < 0) {
    throw new CorruptCheckpointError(file, `field "seq" should be a save number, found ${JSON.stringify(o.seq) ?? 'nothing'}`);
  }
  return { seq: o.seq, state: validateIn(o.state, file) };
}
