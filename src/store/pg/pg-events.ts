/**
 * The event record in PostgreSQL (triage_run_events): one row per event, holding the same
 * versioned line the local file holds (run-event-line.ts), numbered in the order appended. An
 * append is one statement (all its events or none: nothing is ever torn); a row this version
 * cannot read is skipped and counted, as a damaged line of the file is. Not fenced by the run's
 * lease: the record is history, written after the save that makes each claim durable, and a
 * person's note between lives (a workspace choice) is written by whoever made it.
 */
import type { RunEvent, RunEventLog, RunEventStore } from '../run-event';
import { decodeEventLine, encodeEventLine } from '../run-event-line';
import type { PgDatabase } from './database';

export class PgRunEventStore implements RunEventStore {
  constructor(private readonly db: PgDatabase) {}

  async append(runId: string, events: readonly RunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const lines = events.map((e) => encodeEventLine(e).replace(/\n$/, ''));
    await this.db.query('INSERT INTO triage_run_events (run_id, line) SELECT $1, l FROM unnest($2::text[]) WITH ORDINALITY AS t(l, i) ORDER BY i', [
      runId,
      lines,
    ]);
  }

  async read(runId: string): Promise<RunEventLog> {
    const r = await this.db.query<{ line: string }>('SELECT line FROM triage_run_events WHERE run_id = $1 ORDER BY n', [runId]);
    const events: RunEvent[] = [];
    let skipped = 0;
    for (const row of r.rows) {
      const e = decodeEventLine(row.line);
      if (e) events.push(e);
      else skipped++;
    }
    return { events, skipped };
  }

  async remove(runId: string): Promise<void> {
    await this.db.query('DELETE FROM triage_run_events WHERE run_id = $1', [runId]);
  }
}
