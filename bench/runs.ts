/**
 * The runs the save benchmark replays: the batch task's real saves (the task run once with the
 * recorded model, its checkpoint read back record by record), and a synthetic run in the same
 * pattern. Either is a script: a first state, then one change per save, applied to one state
 * object as the loop does (append to messages, replace fields).
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { journalPath } from '../src/store/files/journal-file';
import { scanJournal } from '../src/store/files/journal';
import type { JournalRecord } from '../src/store/files/journal-record';
import { StateEdit } from '../src/store/state-edit';
import { SavePoint, type SaveReason } from '../src/store/save-points';
import { decodeSnapshot } from '../src/store/files/snapshot';
import type { RunState } from '../src/store/state';
import type { Message } from '../src/core/conversation';
import type { MapField, StateField } from '../src/store/state-edit';
import { runPath } from '../src/store/files/state-layout';
import { freshState, LoopPattern } from './synth';

export interface SaveScript {
  name: string;
  /** A fresh first state under `runId`. */
  initial(runId: string): RunState;
  /** The changes, one per save, made through the edit the save then writes: each returns the save point it stands for. */
  steps(): Array<(e: StateEdit) => SaveReason>;
}

export function syntheticRun(turns = 45, seed = 42): SaveScript {
  return {
    name: `synthetic ${turns}-turn run`,
    initial: (runId) => freshState(runId),
    steps() {
      // The pattern once on a scratch state to count the saves, then the same pattern live on the state handed in.
      const probe = new LoopPattern(seed, turns);
      const scratch = new StateEdit(freshState('probe'));
      let saves = 0;
      while (probe.step(scratch) !== undefined) saves++;
      const live = new LoopPattern(seed, turns);
      return Array.from({ length: saves }, () => (e: StateEdit) => live.step(e) ?? SavePoint.PausedOrDone);
    },
  };
}

/** Runs the batch task once (recorded model, syncs off) and turns its checkpoint into a script. */
export async function batchRun(task = 'batch-parser'): Promise<SaveScript> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-batch-'));
  try {
    const { runTriage } = await import('../src/triage/job');
    const { TerminalApprover } = await import('../src/cli/terminal-approver');
    const out = await runTriage({ stateDir: root, task, approver: new TerminalApprover('yes'), store: { sync: false } });
    if (out.result.phase !== 'done') throw new Error(`the ${task} run ended in phase ${out.result.phase}`);
    const snapshotFile = runPath(root, out.runId);
    const snap = decodeSnapshot(await fs.readFile(snapshotFile, 'utf8'), snapshotFile);
    const journal = journalPath(root, out.runId);
    const records: JournalRecord[] = scanJournal(await fs.readFile(journal), journal).records;
    if (snap.seq !== 0) throw new Error('the batch run compacted; the benchmark replays a run from its first snapshot');
    const first = JSON.stringify(snap.state);
    return {
      name: `${task} (real saves)`,
      initial: (runId) => ({ ...(JSON.parse(first) as RunState), runId }),
      steps: () => records.map((r) => (e: StateEdit) => (redo(e, structuredClone(r)), SavePoint.ResultSaved)),
    };
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/** Makes the changes one journal record holds, through the edit, as the loop made them (the loop only appends messages). */
function redo(e: StateEdit, r: JournalRecord): void {
  if (r.from !== e.state.messages.length) throw new Error(`save ${r.seq} rewrites messages from ${r.from}; the loop only appends`);
  for (const m of r.messages) e.push(m as Message);
  for (const [k, v] of Object.entries(r.set)) e.set(k as StateField, v as never);
  for (const [k, entries] of Object.entries(r.patch)) for (const [key, v] of Object.entries(entries)) e.put(k as MapField, key, v as never);
  for (const k of r.unset) e.set(k as StateField, undefined);
}
