/**
 * The run's event record: what happened to a run that its saved state does not say. The state
 * is authoritative for messages, calls, results and usage; the record adds the run's durable
 * history: each life (a start, a restart and why, a reopening only to ask again), workspace
 * checks, the usage of each reply, ladder decisions with their rung, answers and who gave
 * them, how each life stopped, and what a person did to the workspace between lives.
 *
 * An event that claims something the state records (a reply's usage, a ladder decision, an
 * answer) is written only after the save that made it durable, so a crash in between can leave
 * an event out but never make the record claim something that did not happen.
 */
import type { Usage } from '../state';

export type LadderRung = 'rerun' | 'lookup' | 'person';

export type RunEvent =
  /** A life began: a new run, a restart (`resumed`), or a reopening that only asks a saved question again (`reask`). */
  | { type: 'opened'; at: string; resumed: boolean; reask: boolean; restarts: number; phase: string; turn: number; nextCall?: string }
  /** The files the run wrote were found as it left them (on a restart, or after a person answered). */
  | { type: 'workspace-checked'; at: string; files: number; after: 'restart' | 'question' }
  /** A model reply was saved: its usage (the state keeps only the total). `turn` counts from 1. */
  | { type: 'reply'; at: string; turn: number; usage: Usage; calls: number }
  /** The resolution ladder decided about a call that may have acted before the process stopped. */
  | { type: 'ladder'; at: string; callId: string; tool: string; rung: LadderRung; outcome: string; by?: string }
  /** A person answered an approval. */
  | { type: 'answer'; at: string; callId: string; tool: string; answer: 'approve' | 'deny'; by?: string }
  /** A life ended without a crash: done, paused, cancelled, or stopped by an error (its code and message). */
  | { type: 'stopped'; at: string; how: 'done' | 'paused' | 'cancelled' | 'error'; code?: string; message?: string; files?: string[] }
  /** Between lives, a person chose a way on after the workspace changed. */
  | { type: 'workspace-restored' | 'workspace-accepted'; at: string; files: string[] }
  /** A person undid the run's changes: files put back as they were before the run, files it created deleted. */
  | { type: 'undone'; at: string; restored: string[]; deleted: string[] }
  /** The task's checks, judged when the run finished. */
  | { type: 'checks'; at: string; passed: number; total: number; failed: { name: string; detail: string }[] };

export type RunEventType = RunEvent['type'];

/** What reading a run's record gives: its events in order, and how many lines could not be read (skipped, never fatal). */
export interface RunEventLog {
  events: RunEvent[];
  skipped: number;
}

/**
 * Where a run's events are kept. The local store is an append-only file beside the checkpoints
 * (run-events-file.ts); another backend (a database) implements the same three calls.
 */
export interface RunEventStore {
  /** Appends events to the run's record, in order, durably. */
  append(runId: string, events: readonly RunEvent[]): Promise<void>;
  /** The run's events; a run with no record has none. A torn or unreadable line is skipped, never an error. */
  read(runId: string): Promise<RunEventLog>;
  /** Removes the run's record (when the run is deleted). */
  remove(runId: string): Promise<void>;
}
