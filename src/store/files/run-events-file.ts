/**
 * The local event record: <stateDir>/events/<runId>.jsonl, append-only, 0600 in a 0700 folder,
 * one line per event (run-event-line.ts). An append writes all its lines with one write and
 * fsyncs (unless syncs are off, as in the in-process crash sweep). A crash can tear only the
 * last line: the reader ignores a last line without its "\n", and the next append first ends
 * that torn line, so it stays one unreadable line instead of swallowing the next event.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ensureDir, isErrno } from '../../disk/atomic-write';
import { assertRunId } from './state-layout';
import { decodeEventLine, encodeEventLine } from '../run-event-line';
import type { RunEvent, RunEventLog, RunEventStore } from '../run-event';

export function eventsDir(stateDir: string): string {
  return path.join(stateDir, 'events');
}

export function eventsPath(stateDir: string, runId: string): string {
  assertRunId(runId);
  return path.join(eventsDir(stateDir), `${runId}.jsonl`);
}

export class FileRunEventStore implements RunEventStore {
  constructor(
    readonly stateDir: string,
    /** `ready`: awaited before each read or write (the file store's check of its state folder). */
    private readonly opts: { sync?: boolean; ready?: () => Promise<void> } = {},
  ) {}

  async append(runId: string, events: readonly RunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const file = eventsPath(this.stateDir, runId);
    await this.opts.ready?.();
    await ensureDir(eventsDir(this.stateDir));
    const fh = await fs.open(file, 'a+', 0o600);
    try {
      const { size } = await fh.stat();
      let text = events.map(encodeEventLine).join('');
      if (size > 0) {
        const last = Buffer.alloc(1);
        await fh.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) text = `\n${text}`; // end a line torn by a crash
      }
      await fh.appendFile(text);
      if (this.opts.sync ?? true) await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  async read(runId: string): Promise<RunEventLog> {
    let text: string;
    const file = eventsPath(this.stateDir, runId);
    await this.opts.ready?.();
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      if (isErrno(e, 'ENOENT', 'ENOTDIR')) return { events: [], skipped: 0 };
      throw e;
    }
    const lines = text.split('\n');
    const torn = lines.pop(); // "" after the last "\n", or a last line a crash cut short
    const events: RunEvent[] = [];
    let skipped = torn ? 1 : 0;
    for (const line of lines) {
      if (line === '') continue;
      const e = decodeEventLine(line);
      if (e) events.push(e);
      else skipped++;
    }
    return { events, skipped };
  }

  async remove(runId: string): Promise<void> {
    const file = eventsPath(this.stateDir, runId);
    await this.opts.ready?.();
    await fs.rm(file, { force: true });
  }
}
