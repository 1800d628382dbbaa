/**
 * The sweep's view of a run in the PostgreSQL store: its state, its save number and its blobs,
 * for the acknowledgement check (acks.ts) between two lives.
 */
import type { PgRunStore } from '../store/pg/pg-run-store';
import type { RunProbe } from './acks';

export function pgProbe(store: PgRunStore): RunProbe {
  return async (runId) => {
    const run = await store.readRunAt(runId);
    return run && { ...run, blob: (sha) => store.getBlob(sha) };
  };
}
