/**
 * A state folder's event record (see durable/events): the default store, and a note a person's
 * choice outside a run's life leaves in it.
 */
import type { StoreOptions } from '../durable/checkpoint';
import type { RunEvent, RunEventStore } from '../durable/events/run-event';
import { FileRunEventStore } from '../durable/events/run-events-file';

/** The state folder's event record: one append-only file per run beside the checkpoints. */
export function runEvents(stateDir: string, store?: StoreOptions): RunEventStore {
  return new FileRunEventStore(stateDir, { sync: store?.sync ?? true });
}

/** Records an event outside a run's life (a person's choice); a failure to record never undoes what was done. */
export async function noteEvent(stateDir: string, runId: string, e: RunEvent): Promise<void> {
  await runEvents(stateDir).append(runId, [e]).catch(() => undefined);
}
