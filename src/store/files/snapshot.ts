/**
 * A run's snapshot: the whole state as of one save, one JSON document, replaced atomically
 * (temp file, fsync, rename, directory fsync) when the run is created and when its journal is
 * compacted. The journal's records after `seq` are applied on top of it.
 *
 *   {"kind":"durable-triage-snapshot","seq":12,"state":{ ...RunState... }}
 */
import { z } from 'zod';
import { CorruptCheckpointError } from '../../core/errors';
import { parseSchema, SchemaError } from '../../core/schema';
import { encodeState, parseCheckpointJson, validateState, type RunState } from '../state';

export const SNAPSHOT_KIND = 'durable-triage-snapshot';

/** The snapshot's envelope; its state is checked by validateState (RunStateSchema). */
const SnapshotSchema = z.object({
  kind: z.literal(SNAPSHOT_KIND),
  /** The save the snapshot holds. */
  seq: z.number().int().nonnegative(),
  state: z.unknown(),
});

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
  let env: z.output<typeof SnapshotSchema>;
  try {
    env = parseSchema(SnapshotSchema, raw, '');
  } catch (e) {
    if (e instanceof SchemaError) throw new CorruptCheckpointError(file, e.message);
    throw e;
  }
  return { seq: env.seq, state: validateIn(env.state, file) };
}
