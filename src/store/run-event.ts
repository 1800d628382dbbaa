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
import { z } from 'zod';
import { UsageSchema } from '../core/conversation';

export const LADDER_RUNGS = ['rerun', 'lookup', 'person'] as const;
export type LadderRung = (typeof LADDER_RUNGS)[number];

const at = z.string();
const paths = z.array(z.string());

export const RunEventSchema = z.discriminatedUnion('type', [
  /** A life began: a new run, a restart (`resumed`), or a reopening that only asks a saved question again (`reask`). */
  z.object({
    type: z.literal('opened'),
    at,
    resumed: z.boolean(),
    reask: z.boolean(),
    restarts: z.number(),
    phase: z.string(),
    turn: z.number(),
    nextCall: z.string().optional(),
  }),
  /** The files the run wrote were found as it left them (on a restart, or after a person answered). */
  z.object({ type: z.literal('workspace-checked'), at, files: z.number(), after: z.enum(['restart', 'question']) }),
  /** A model reply was saved: its usage (the state keeps only the total). `turn` counts from 1. */
  z.object({ type: z.literal('reply'), at, turn: z.number(), usage: UsageSchema, calls: z.number() }),
  /** The resolution ladder decided about a call that may have acted before the process stopped. */
  z.object({ type: z.literal('ladder'), at, callId: z.string(), tool: z.string(), rung: z.enum(LADDER_RUNGS), outcome: z.string(), by: z.string().optional() }),
  /** A person answered an approval. */
  z.object({ type: z.literal('answer'), at, callId: z.string(), tool: z.string(), answer: z.enum(['approve', 'deny']), by: z.string().optional() }),
  /** A life ended without a crash: done, paused, cancelled, or stopped by an error (its code and message). */
  z.object({
    type: z.literal('stopped'),
    at,
    how: z.enum(['done', 'paused', 'cancelled', 'error']),
    code: z.string().optional(),
    message: z.string().optional(),
    files: paths.optional(),
  }),
  /** Between lives, a person chose a way on after the workspace changed. */
  z.object({ type: z.enum(['workspace-restored', 'workspace-accepted']), at, files: paths }),
  /** A person undid the run's changes: files put back as they were before the run, files it created deleted. */
  z.object({ type: z.literal('undone'), at, restored: paths, deleted: paths }),
  /** The task's checks, judged when the run finished. */
  z.object({ type: z.literal('checks'), at, passed: z.number(), total: z.number(), failed: z.array(z.object({ name: z.string(), detail: z.string() })) }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;

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
