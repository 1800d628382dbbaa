/**
 * Where the tracker service keeps its issues: a folder (store.ts, the default) or the run
 * store's PostgreSQL database (pg-issues.ts), shared by every worker and editor using it.
 */
import type { FileOptions, IssueFilter, NewIssue, TrackerIssue } from './store';

export interface IssueStore {
  /** How long an idempotency key is honoured. */
  readonly retentionMs: number;
  list(f?: IssueFilter): Promise<TrackerIssue[]>;
  get(n: number): Promise<TrackerIssue | undefined>;
  /** The newest issue filed with `key`, and whether the key is still honoured. */
  byKey(key: string): Promise<{ issue: TrackerIssue; live: boolean } | undefined>;
  /** Files an issue, or (a key still honoured) returns the one filed with it; KeyReusedError for a live key sent with another issue. */
  file(input: NewIssue, o?: FileOptions): Promise<{ issue: TrackerIssue; replayed: boolean }>;
  close(): Promise<void>;
}
