/**
 * Loading a run from its two files: the snapshot (runPath) and the journal (journalPath).
 *
 * With the run's lock held (openRun) nobody writes while we read. Without it (readRun,
 * listRuns: status views) a save or a compaction may be under way: a torn tail is simply
 * dropped; when the snapshot was replaced while we read (a compaction: the journal we read may
 * already be the new snapshot's, and older than it), we read again; and a verdict of damage is
 * believed only when two reads in a row see the same bytes.
 *
 * The reads are synchronous: a handful of system calls instead of as many thread-pool round
 * trips (most of the time opening a small run took), and decoding the JSON blocks the event
 * loop longer than reading it does anyway.
 */
import * as fs from 'node:fs';
import { BadInputError, CorruptCheckpointError } from '../../core/errors';
import { isErrno } from '../../disk/atomic-write';
import { journalPath } from './journal-file';
import { scanJournal } from './journal';
import { runPath } from './state-layout';
import { replay, type RunFiles } from './replay';
import { decodeSnapshot } from './snapshot';
import type { RunState } from '../state';

export interface LoadedRun {
  state: RunState;
  files: RunFiles;
  /** The save the state is. */
  seq: number;
  snapshotBytes: number;
  journal: {
    exists: boolean;
    /** Bytes up to the end of the last good record. */
    goodBytes: number;
    /** Bytes of a torn tail after them (dropped; openRun cuts them). */
    tornBytes: number;
    /** Every record is older than the snapshot (openRun empties the journal). */
    stale: boolean;
  };
}

/** Unlocked reads that see damage try again this many times while the bytes keep changing. */
const UNLOCKED_READS = 5;

export function noSuchRun(stateDir: string, runId: string): BadInputError {
  return new BadInputError(`No run ${runId} in ${stateDir}. List the runs there with "triage status".`);
}

export function runFiles(stateDir: string, runId: string): RunFiles {
  return { snapshot: runPath(stateDir, runId), journal: journalPath(stateDir, runId) };
}

function readOptional(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return undefined;
    throw e;
  }
}

function decode(runId: string, files: RunFiles, snapshot: Buffer, journal: Buffer | undefined): LoadedRun {
  const snap = decodeSnapshot(snapshot.toString('utf8'), files.snapshot);
  const scan = journal ? scanJournal(journal, files.journal) : { records: [], goodBytes: 0, tornBytes: 0 };
  const r = replay(snap, scan.records, files, runId);
  return {
    state: r.state,
    files,
    seq: r.seq,
    snapshotBytes: snapshot.length,
    journal: { exists: journal !== undefined, goodBytes: scan.goodBytes, tornBytes: scan.tornBytes, stale: r.stale },
  };
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

/** Which file a path names, as far as a reader can tell: a compaction renames a new file over the snapshot. */
function identity(st: { ino: number; size: number; mtimeMs: number }): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The snapshot's bytes, and the identity of the file they were read from. */
function readSnapshot(file: string): { bytes: Buffer; id: string } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return undefined;
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    return { bytes: fs.readFileSync(fd), id: identity(st) };
  } finally {
    fs.closeSync(fd);
  }
}

function identityOf(file: string): string | undefined {
  try {
    return identity(fs.statSync(file));
  } catch {
    return undefined;
  }
}

/** Reads and validates a run. `locked`: the caller holds the run's lock. */
export async function loadRun(stateDir: string, runId: string, locked: boolean): Promise<LoadedRun> {
  const files = runFiles(stateDir, runId);
  let previous: [Buffer, Buffer | undefined] | undefined;
  for (let read = 1; ; read++) {
    const snapshot = readSnapshot(files.snapshot);
    if (snapshot === undefined) throw noSuchRun(stateDir, runId);
    const journal = readOptional(files.journal);
    let run: LoadedRun | undefined;
    let error: unknown;
    try {
      run = decode(runId, files, snapshot.bytes, journal);
    } catch (e) {
      error = e;
    }
    if (locked) {
      if (run) return run;
      throw error;
    }
    // A compaction between our two reads: the journal we read may already be the new snapshot's (an older state).
    const moved = identityOf(files.snapshot) !== snapshot.id && read < UNLOCKED_READS;
    if (!moved) {
      if (run) return run;
      if (!(error instanceof CorruptCheckpointError) || read >= UNLOCKED_READS) throw error;
      if (previous && previous[0].equals(snapshot.bytes) && sameBytes(previous[1], journal)) throw error;
      previous = [snapshot.bytes, journal];
    }
    await new Promise((resolve) => setTimeout(resolve, read)); // let the writer finish what it is doing
  }
}
