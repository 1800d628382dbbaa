/**
 * A run store's event record (see store/run-event.ts): the store's own (a file per run beside the
 * checkpoints, or PostgreSQL's triage_run_events), and a note a person's choice outside a run's
 * life leaves in it.
 */
import type { StoreOptions } from '../store/files/checkpoint';
import type { RunEvent, RunEventStore } from '../store/run-event';
import type { RunStore } from '../store/run-store';
import { FileRunStore } from '../store/files/file-run-store';

/** The event record of a store (a state folder: one append-only file per run beside the checkpoints). */
export function runEvents(at: string | RunStore, store?: StoreOptions): RunEventStore {
  return (typeof at === 'string' ? new FileRunStore(at) : at).events({ sync: store?.sync ?? true });
}

/** Records an event outside a run's life (a person's choice); a failure to record never undoes what was done. */
export async function noteEvent(at: string | RunStore, runId: string, e: RunEvent): Promise<void> {
  await runEvents(at).append(runId, [e]).catch(() => undefined);
}
