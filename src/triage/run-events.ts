/**
 * A run store's event record (store/run-event.ts): the store's own (a file per run beside the
 * checkpoints, or PostgreSQL's triage_run_events), and a note a person's choice outside a run's
 * life leaves in it.
 */
import type { RunEvent, RunEventStore } from '../store/run-event';
import type { RunStore, StoreOptions } from '../store/run-store';
import { openStateFolder } from '../store/open-store';

/** The event record of a store (a state folder: one append-only file per run beside the checkpoints). */
export function runEvents(at: string | RunStore, store?: StoreOptions): RunEventStore {
  return (typeof at === 'string' ? openStateFolder(at) : at).events({ sync: store?.sync ?? true });
}

/** Records an event outside a run's life (a person's choice); a failure to record never undoes what was done. */
export async function noteEvent(at: string | RunStore, runId: string, e: RunEvent): Promise<void> {
  await runEvents(at)
    .append(runId, [e])
    .catch(() => undefined);
}
