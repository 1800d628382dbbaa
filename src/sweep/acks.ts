/**
 * What a run acknowledged, and whether the next process finds it: a run whose creation
 * returned must be there, with at least as many saves as returned (the save sequence), and
 * every blob its ledger names. Checked on the disk the next life starts from, before it runs.
 */
import * as fs from 'node:fs';
import type { LoopEvent } from '../agent/loop';
import { runPath } from '../store/files/checkpoint';
import { loadRun } from '../store/files/checkpoint-load';
import { BlobStore } from '../disk/blob-store';
import type { RunState } from '../store/state';

export interface Acks {
  /** createRun returned (the runner asked for the run's parts). */
  created: boolean;
  /** Saves that returned, over all lives: the save sequence the run must be at, at least. */
  saves: number;
}

export function newAcks(): Acks {
  return { created: false, saves: 0 };
}

/** Counts a save that returned. */
export function noteAck(a: Acks, e: LoopEvent): void {
  if (e.type === 'saved') a.saves++;
}

export interface AckCheck {
  /** The run's creation returned, and there is no run. */
  runLost: boolean;
  /** Something acknowledged is missing: the run, a save, a blob its ledger names; or the run cannot be read. */
  lost: boolean;
}

/** What a store holds of a run, as the acknowledgement check needs it; undefined when there is no run. */
export type RunProbe = (runId: string) => Promise<{ seq: number; state: RunState; blob(sha256: string): Promise<Buffer | undefined> } | undefined>;

/** The check against another store (PostgreSQL): the same three questions, asked through `probe`. */
export async function checkAcksWith(probe: RunProbe, runId: string, a: Acks): Promise<AckCheck> {
  if (!a.created) return { runLost: false, lost: false };
  let run;
  try {
    run = await probe(runId);
  } catch {
    return { runLost: false, lost: true };
  }
  if (!run) return { runLost: true, lost: true };
  if (run.seq < a.saves) return { runLost: false, lost: true };
  for (const rec of Object.values(run.state.files ?? {})) {
    if ((await run.blob(rec.sha256).catch(() => undefined)) === undefined) return { runLost: false, lost: true };
  }
  return { runLost: false, lost: false };
}

export async function checkAcks(stateDir: string, runId: string, a: Acks): Promise<AckCheck> {
  if (!a.created) return { runLost: false, lost: false };
  if (!fs.existsSync(runPath(stateDir, runId))) return { runLost: true, lost: true };
  let run;
  try {
    run = await loadRun(stateDir, runId, false);
  } catch {
    return { runLost: false, lost: true };
  }
  if (run.seq < a.saves) return { runLost: false, lost: true };
  const blobs = new BlobStore(stateDir, false);
  for (const rec of Object.values(run.state.files ?? {})) {
    if ((await blobs.get(rec.sha256).catch(() => undefined)) === undefined) return { runLost: false, lost: true };
  }
  return { runLost: false, lost: false };
}
