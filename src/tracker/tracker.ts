/**
 * The tracker as the tools and the job use it, whichever it is: the embedded/HTTP tracker of
 * this project (client.ts, which honours idempotency keys) or GitHub Issues (github/, which
 * does not: exactly-once there rests on the ladder's lookup of a hidden marker).
 */
import type { FileOptions, IssueFilter, NewIssue, TrackerIssue } from '../store/issues';

export interface Filed {
  issue: TrackerIssue;
  /** The tracker recognised the key and returned the issue it filed before. */
  replayed: boolean;
}

export interface Tracker {
  /** What it is, for messages: a URL, or "github:OWNER/REPO". */
  readonly name: string;
  /**
   * The service honours idempotency keys (a repeat with the same key files nothing new), so
   * issue_file may be declared keyed. GitHub does not: its filings carry the key in a hidden
   * marker that only the lookup reads.
   */
  readonly honoursKeys: boolean;
  /** How long the service keeps keys (only asked when honoursKeys). */
  keyRetention(signal?: AbortSignal): Promise<number>;
  fileIssue(input: NewIssue, o?: FileOptions & { signal?: AbortSignal }): Promise<Filed>;
  /** The issue filed with `key`, or undefined when the tracker certainly has none; throws when it cannot tell. */
  byKey(key: string, signal?: AbortSignal): Promise<TrackerIssue | undefined>;
  /** Issues filed through us, by cause / run / workspace (a tracker whose scope is a repository ignores the workspace). */
  search(f: IssueFilter, signal?: AbortSignal): Promise<TrackerIssue[]>;
  get(n: number, signal?: AbortSignal): Promise<TrackerIssue | undefined>;
}
