/**
 * A run's transcript from its store (a state folder, or PostgreSQL): the saved state (read
 * without the lock or lease, as views read it) and its event record. An event record that cannot be read at all leaves the
 * transcript without history, with a note saying so; it never stops the run being shown.
 */
import type { RunEventLog, RunEventStore } from '../store/run-event';
import { withStore, type StoreRef } from '../store/open-store';
import type { RunState } from '../store/state';
import { buildTranscript } from './build';
import type { Transcript } from '../core/transcript';

export async function loadTranscript(at: StoreRef, runId: string, eventStore?: RunEventStore): Promise<Transcript> {
  return withStore(at, async (store) => {
    const state = await store.readRun(runId);
    return transcriptOf(state, runId, eventStore ?? store.events());
  });
}

async function transcriptOf(state: RunState, runId: string, events: RunEventStore): Promise<Transcript> {
  let log: RunEventLog;
  let problem: string | undefined;
  try {
    log = await events.read(runId);
  } catch (e) {
    log = { events: [], skipped: 0 };
    problem = `The event record could not be read (${(e as Error).message}); the run's history is not shown.`;
  }
  const t = buildTranscript(state, log);
  if (problem) t.notes.unshift(problem);
  return t;
}
