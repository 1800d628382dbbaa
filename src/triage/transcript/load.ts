/**
 * A run's transcript from its state folder: the saved state (read without the lock, as views
 * read it) and its event record. An event record that cannot be read at all leaves the
 * transcript without history, with a note saying so; it never stops the run being shown.
 */
import { readRun } from '../../durable/checkpoint';
import type { RunEventLog, RunEventStore } from '../../durable/events/run-event';
import { runEvents } from '../run-events';
import { buildTranscript } from './build';
import type { Transcript } from './model';

export async function loadTranscript(stateDir: string, runId: string, events: RunEventStore = runEvents(stateDir)): Promise<Transcript> {
  const state = await readRun(stateDir, runId);
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
