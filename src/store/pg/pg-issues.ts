/**
 * The embedded tracker's issues in the run store's PostgreSQL database (triage_issues): one
 * tracker for every worker and editor using the database, as the folder store is one for every
 * run of a state folder. A filing is one transaction under an advisory lock (numbers stay
 * 1, 2, 3... and a key is checked and taken atomically); reads always read the table again.
 * Keys are honoured for the retention as the folder store does (by this process's clock).
 */
import type { PgDatabase } from './database';
import { DEFAULT_RETENTION_MS, KeyReusedError, type FileOptions, type IssueFilter, type IssueStore, type NewIssue, type TrackerIssue } from '../issues';

/** pg_advisory_xact_lock's key for "filing an issue". */
const FILING_LOCK = 7_041_991_002;

interface IssueRow {
  number: number;
  title: string;
  body: string;
  cause: string;
  run_id: string | null;
  workspace: string | null;
  key: string | null;
  created_at: Date;
}

function issueOf(r: IssueRow): TrackerIssue {
  const i: TrackerIssue = { number: r.number, title: r.title, body: r.body, cause: r.cause, createdAt: r.created_at.toISOString() };
  if (r.run_id !== null) i.runId = r.run_id;
  if (r.workspace !== null) i.workspace = r.workspace;
  if (r.key !== null) i.key = r.key;
  return i;
}

export class PgIssueStore implements IssueStore {
  constructor(
    private readonly db: PgDatabase,
    readonly retentionMs: number = DEFAULT_RETENTION_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async list(f: IssueFilter = {}): Promise<TrackerIssue[]> {
    const r = await this.db.query<IssueRow>(
      `SELECT * FROM triage_issues WHERE ($1::text IS NULL OR cause = $1) AND ($2::text IS NULL OR run_id = $2) AND ($3::text IS NULL OR workspace = $3) ORDER BY number`,
      [f.cause ?? null, f.runId ?? null, f.workspace ?? null],
    );
    return r.rows.map(issueOf);
  }

  async get(n: number): Promise<TrackerIssue | undefined> {
    const r = await this.db.query<IssueRow>('SELECT * FROM triage_issues WHERE number = $1', [n]);
    return r.rows[0] ? issueOf(r.rows[0]) : undefined;
  }

  private withLiveness(i: TrackerIssue): { issue: TrackerIssue; live: boolean } {
    return { issue: i, live: this.now() - Date.parse(i.createdAt) < this.retentionMs };
  }

  async byKey(key: string): Promise<{ issue: TrackerIssue; live: boolean } | undefined> {
    const r = await this.db.query<IssueRow>('SELECT * FROM triage_issues WHERE key = $1 ORDER BY number DESC LIMIT 1', [key]);
    return r.rows[0] ? this.withLiveness(issueOf(r.rows[0])) : undefined;
  }

  file(input: NewIssue, o: FileOptions = {}): Promise<{ issue: TrackerIssue; replayed: boolean }> {
    return this.db.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [FILING_LOCK]);
      if (o.key !== undefined) {
        const seen = await c.query<IssueRow>('SELECT * FROM triage_issues WHERE key = $1 ORDER BY number DESC LIMIT 1', [o.key]);
        const found = seen.rows[0] ? this.withLiveness(issueOf(seen.rows[0])) : undefined;
        if (found?.live) {
          const i = found.issue;
          if (i.title !== input.title || i.body !== input.body || i.cause !== input.cause) throw new KeyReusedError(o.key, i.number);
          return { issue: i, replayed: true };
        }
      }
      const r = await c.query<IssueRow>(
        `INSERT INTO triage_issues (number, title, body, cause, run_id, workspace, key, created_at)
         SELECT coalesce(max(number), 0) + 1, $1, $2, $3, $4, $5, $6, $7 FROM triage_issues
         RETURNING *`,
        [input.title, input.body, input.cause, o.runId ?? null, o.workspace ?? null, o.key ?? null, new Date(this.now())],
      );
      return { issue: issueOf(r.rows[0]), replayed: false };
    });
  }

  async close(): Promise<void> {}
}
