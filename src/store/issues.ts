/**
 * The embedded tracker's issues, as a store keeps them: a state folder's tracker/ folder
 * (tracker/store.ts) or, offered as `RunStore.issues()`, the PostgreSQL store's table
 * (pg/pg-issues.ts), shared by every worker and editor using it. The tracker service
 * (tracker/service.ts) serves either.
 */
import { z } from 'zod';
import { TriageError } from '../core/errors';

export const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

export const TrackerIssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string(),
  cause: z.string(),
  /** The run that filed it (the X-Triage-Run header). */
  runId: z.string().optional(),
  /** The workspace the run worked in (the X-Triage-Workspace header): the refile guard's scope. */
  workspace: z.string().optional(),
  /** The Idempotency-Key it was filed with. */
  key: z.string().optional(),
  createdAt: z.string().refine((t) => !Number.isNaN(Date.parse(t)), { error: 'should be a time' }),
  /** Open or closed, where the tracker has that (GitHub); the embedded tracker's issues are never closed. */
  state: z.enum(['open', 'closed']).optional(),
  /** Its web page, where the tracker has one (GitHub: the html_url of its answer); the embedded tracker's issues have none. */
  url: z.string().optional(),
});
export type TrackerIssue = z.infer<typeof TrackerIssueSchema>;

export interface NewIssue {
  title: string;
  body: string;
  cause: string;
}

export interface IssueFilter {
  cause?: string;
  runId?: string;
  workspace?: string;
}

export interface FileOptions {
  key?: string;
  runId?: string;
  workspace?: string;
}

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

/** An idempotency key the tracker still keeps was sent again with a different request. */
export class KeyReusedError extends TriageError {
  readonly code = 'key-reused';
  constructor(
    readonly key: string,
    readonly issueNumber: number,
  ) {
    super(
      `Idempotency-Key ${key} was already used for issue #${issueNumber} with a different title, body or cause; a key names one request. Send a new key for a new issue.`,
    );
  }
}
