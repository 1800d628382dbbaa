/**
 * The journal file of a run, <stateDir>/runs/<runId>.jsonl (0600): one record appended and
 * synced (fdatasync) per save, the directory synced once when the file is created, emptied
 * (truncate, sync) after each compaction. The file stays open between saves.
 */
import * as path from 'node:path';
import { fsyncDir, isErrno } from '../../disk/atomic-write';
import { io, type IoFile } from '../../disk/io';
import { runsDir } from './state-layout';
import { WritePoint } from '../../disk/write-points';

/** The journal of a run, beside its snapshot (runPath). */
export function journalPath(stateDir: string, runId: string): string {
  return path.join(runsDir(stateDir), `${runId}.jsonl`);
}

/** Cuts the journal to `length` bytes (a torn tail, or a stale journal with 0), synced. */
export async function truncateJournal(file: string, length: number, sync: boolean): Promise<void> {
  const fh = await io().open(file, 'r+');
  try {
    await fh.truncate(length);
    if (sync) await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Removes a journal; true when there was one. */
export async function removeJournal(file: string): Promise<boolean> {
  try {
    await io().unlink(file);
    return true;
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return false;
    throw e;
  }
}

export class JournalFile {
  private fh: IoFile | undefined;

  /** `size`: its bytes now (0 when it does not exist); `exists`: whether the file is there. */
  constructor(
    readonly file: string,
    private size: number,
    private exists: boolean,
    private readonly sync: boolean,
  ) {}

  get bytes(): number {
    return this.size;
  }

  private async open(): Promise<IoFile> {
    this.fh ??= await io().open(this.file, 'a', 0o600);
    return this.fh;
  }

  /**
   * Appends one record line and syncs it. With a crash hook the line goes in two writes with
   * WritePoint.JournalTorn between them (a crash there leaves a torn tail), and
   * WritePoint.JournalAppended is passed once the record is durable.
   */
  async append(line: Buffer, crash?: (p: WritePoint) => void): Promise<void> {
    const created = !this.exists;
    const fh = await this.open();
    this.exists = true;
    if (crash) {
      const half = line.length >> 1;
      await fh.write(line.subarray(0, half));
      crash(WritePoint.JournalTorn);
      await fh.write(line.subarray(half));
    } else {
      await fh.write(line);
    }
    if (this.sync) {
      await fh.datasync();
      if (created) await fsyncDir(path.dirname(this.file));
    }
    this.size += line.length;
    crash?.(WritePoint.JournalAppended);
  }

  /** Empties the journal (after a compaction made its records part of the snapshot). */
  async reset(): Promise<void> {
    if (!this.exists) return;
    const fh = await this.open();
    await fh.truncate(0);
    if (this.sync) await fh.datasync();
    this.size = 0;
  }

  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }
}
