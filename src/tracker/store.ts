/**
 * The tracker's issues, kept crash-safely in one directory: <dir>/issues.json is replaced
 * atomically on every change (temp file 0600 in the same directory, fsync, rename, fsync
 * the directory), so after a crash it holds either the old list or the new one. A file that
 * cannot be read back (truncated, not JSON, a bad field) is a TrackerStoreCorruptError,
 * never an empty tracker, and is left as it is.
 *
 * Shared, as a real tracker is: every run of a state folder (in this process or another)
 * files into the same store. Each filing takes the store's lock (the durable core's run lock,
 * which reclaims a dead process's lock at once) for the few milliseconds of reading the file
 * again, deciding, and replacing it; a busy lock is waited for (a few seconds at most). Reads
 * always read the file again, so an answer never lags behind another process's filing (the
 * ladder's lookup relies on that: a "no such key" must be certain).
 *
 * Idempotency keys: a filing with a key seen within the retention (default 24 h) returns the
 * original issue without creating one; an expired key counts as no key. Keys stay on their
 * issues after that, so a lookup by key can still find the issue (and say it was expired).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { LockedError } from '../core/errors';
import { ensureDir, isErrno, nonce, writeFileAtomic } from '../disk/atomic-write';
import { acquireRunLock, type RunLock } from '../disk/lock';
import { z } from 'zod';
import { parseSchema, SchemaError } from '../core/schema';
import { KeyReusedError, TrackerLockedError, TrackerStoreCorruptError } from './errors';
import {
  DEFAULT_RETENTION_MS,
  TrackerIssueSchema,
  type FileOptions,
  type IssueFilter,
  type IssueStore,
  type NewIssue,
  type TrackerIssue,
} from '../store/issues';

export { DEFAULT_RETENTION_MS, TrackerIssueSchema, type FileOptions, type IssueFilter, type NewIssue, type TrackerIssue } from '../store/issues';

export const ISSUES_FILE = 'issues.json';
const STORE_VERSION = 1;
/** How long a filing waits for another process's filing to finish before giving up. */
const LOCK_WAIT_MS = 10_000;

/** issues.json: the version and every issue, numbered once each. */
const IssuesFileSchema = z.object({
  version: z.literal(STORE_VERSION),
  issues: z.array(TrackerIssueSchema).superRefine((issues, ctx) => {
    const seen = new Set<number>();
    issues.forEach((i, k) => {
      if (seen.has(i.number)) ctx.addIssue({ code: 'custom', path: [k, 'number'], message: `issue #${i.number} appears twice` });
      seen.add(i.number);
    });
  }),
});

export interface StoreOptions {
  /** How long an idempotency key is honoured; default 24 h. */
  retentionMs?: number;
  /** The clock, in ms since the epoch (tests inject one). */
  now?: () => number;
  /** fsync on every change (default true). */
  sync?: boolean;
}

export function matches(i: TrackerIssue, f: IssueFilter): boolean {
  return (
    (f.cause === undefined || i.cause === f.cause) &&
    (f.runId === undefined || i.runId === f.runId) &&
    (f.workspace === undefined || i.workspace === f.workspace)
  );
}

export class TrackerStore implements IssueStore {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly dir: string,
    readonly retentionMs: number,
    private readonly now: () => number,
    private readonly sync: boolean,
  ) {}

  get filePath(): string {
    return path.join(this.dir, ISSUES_FILE);
  }

  /** Opens (creating the folder if needed) the store in `dir`; a corrupt issue file is refused here already. */
  static async open(dir: string, o: StoreOptions = {}): Promise<TrackerStore> {
    const abs = path.resolve(dir);
    const retentionMs = o.retentionMs ?? DEFAULT_RETENTION_MS;
    if (!(retentionMs > 0)) throw new RangeError(`retentionMs must be positive, not ${retentionMs}`);
    await ensureDir(abs);
    await load(path.join(abs, ISSUES_FILE));
    return new TrackerStore(abs, retentionMs, o.now ?? Date.now, o.sync ?? true);
  }

  /** The issues of a store, read without its lock (for listing; a missing store has none). */
  static async readOnly(dir: string): Promise<TrackerIssue[]> {
    return load(path.join(path.resolve(dir), ISSUES_FILE));
  }

  async list(f: IssueFilter = {}): Promise<TrackerIssue[]> {
    return (await this.read()).filter((i) => matches(i, f));
  }

  async get(n: number): Promise<TrackerIssue | undefined> {
    return (await this.read()).find((x) => x.number === n);
  }

  /** The newest issue filed with `key`, and whether the key is still honoured (within the retention). */
  async byKey(key: string): Promise<{ issue: TrackerIssue; live: boolean } | undefined> {
    return this.newestWithKey(await this.read(), key);
  }

  /**
   * Files an issue, or (a key still honoured) returns the one filed with that key, replayed.
   * A live key sent with a different title, body or cause is a KeyReusedError.
   */
  file(input: NewIssue, o: FileOptions = {}): Promise<{ issue: TrackerIssue; replayed: boolean }> {
    return this.serial(async () => {
      if (this.closed) throw new Error(`the tracker store ${this.dir} is closed`);
      const lock = await this.lock();
      try {
        const issues = await this.read();
        if (o.key !== undefined) {
          const seen = this.newestWithKey(issues, o.key);
          if (seen?.live) {
            const i = seen.issue;
            if (i.title !== input.title || i.body !== input.body || i.cause !== input.cause) throw new KeyReusedError(o.key, i.number);
            return { issue: i, replayed: true };
          }
        }
        if (lock.compromised !== undefined) throw new Error(`the lock on the tracker store ${this.dir} was lost (${lock.compromised}); nothing was filed`);
        const issue: TrackerIssue = {
          number: issues.reduce((m, i) => Math.max(m, i.number), 0) + 1,
          title: input.title,
          body: input.body,
          cause: input.cause,
          createdAt: new Date(this.now()).toISOString(),
        };
        if (o.runId !== undefined) issue.runId = o.runId;
        if (o.workspace !== undefined) issue.workspace = o.workspace;
        if (o.key !== undefined) issue.key = o.key;
        await this.write([...issues, issue]);
        return { issue: { ...issue }, replayed: false };
      } finally {
        await lock.release();
      }
    });
  }

  /** Waits for filings in progress; afterwards the store files nothing more. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
  }

  private read(): Promise<TrackerIssue[]> {
    return load(this.filePath);
  }

  private newestWithKey(issues: TrackerIssue[], key: string): { issue: TrackerIssue; live: boolean } | undefined {
    for (let k = issues.length - 1; k >= 0; k--) {
      const i = issues[k];
      if (i.key === key) return { issue: i, live: this.now() - Date.parse(i.createdAt) < this.retentionMs };
    }
    return undefined;
  }

  /** The store's lock, waiting (with backoff) while another process files; TrackerLockedError after LOCK_WAIT_MS. */
  private async lock(): Promise<RunLock> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      try {
        return await acquireRunLock(`tracker:${this.dir}`, this.filePath);
      } catch (e) {
        if (!(e instanceof LockedError)) throw e;
        if (Date.now() + wait > deadline) throw new TrackerLockedError(this.dir, e.owner, LOCK_WAIT_MS);
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  private async write(issues: TrackerIssue[]): Promise<void> {
    const text = JSON.stringify({ version: STORE_VERSION, issues }, null, 1) + '\n';
    await writeFileAtomic(this.filePath, path.join(this.dir, `.issues-${nonce()}.tmp`), text, { sync: this.sync });
  }

  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

async function load(file: string): Promise<TrackerIssue[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return [];
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new TrackerStoreCorruptError(file, text.length === 0 ? 'the file is empty' : `not valid JSON (${(e as Error).message}); it may be truncated`);
  }
  return validate(raw, file);
}

function validate(raw: unknown, file: string): TrackerIssue[] {
  try {
    return parseSchema(IssuesFileSchema, raw, '').issues;
  } catch (e) {
    if (e instanceof SchemaError) throw new TrackerStoreCorruptError(file, e.message);
    throw e;
  }
}
