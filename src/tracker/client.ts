/**
 * The agent's side of the tracker: global fetch with a timeout. A tracker that does not
 * answer, or answers with an error status, is a TrackerError naming its URL (and status).
 * The idempotency key travels in the Idempotency-Key header, the run in X-Triage-Run and
 * its workspace in X-Triage-Workspace; the JSON body holds only what the model wrote.
 */
import { TrackerError } from './errors';
import type { Filed, Tracker } from './tracker';
import { DEFAULT_RETENTION_MS, type FileOptions, type IssueFilter, type NewIssue, type TrackerIssue } from './store';

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface TrackerClientOptions {
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /** The tracker's key retention, when known up front (otherwise learnt from /meta or a filing; default 24 h). */
  retentionMs?: number;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export type { Filed };

export class TrackerClient implements Tracker {
  readonly baseUrl: string;
  readonly honoursKeys = true;
  private readonly timeoutMs: number;
  private knownRetention: number | undefined;

  constructor(baseUrl: string, o: TrackerClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.knownRetention = o.retentionMs;
  }

  get name(): string {
    return this.baseUrl;
  }

  /** The key retention the tracker declared (last seen), or the default 24 h before it has said. */
  get retentionMs(): number {
    return this.knownRetention ?? DEFAULT_RETENTION_MS;
  }

  /** The key retention the tracker declared: what it said last, or (nothing learnt yet in this process) asked now by /meta. */
  async keyRetention(signal?: AbortSignal): Promise<number> {
    return this.knownRetention ?? (await this.meta(signal)).retentionMs;
  }

  async meta(signal?: AbortSignal): Promise<{ retentionMs: number }> {
    const a = await this.request('GET', '/meta', { signal });
    this.expect(a, [200], '/meta');
    const r = a.body.retentionMs;
    if (typeof r !== 'number' || !(r > 0)) throw new TrackerError(this.baseUrl, a.status, '/meta has no retentionMs');
    this.knownRetention = r;
    return { retentionMs: r };
  }

  async fileIssue(input: NewIssue, o: FileOptions & { signal?: AbortSignal } = {}): Promise<Filed> {
    const headers: Record<string, string> = {};
    if (o.key !== undefined) headers['Idempotency-Key'] = o.key;
    if (o.runId !== undefined) headers['X-Triage-Run'] = o.runId;
    if (o.workspace !== undefined) headers['X-Triage-Workspace'] = encodeURIComponent(o.workspace);
    const body = JSON.stringify({ title: input.title, body: input.body, cause: input.cause });
    const a = await this.request('POST', '/issues', { headers, body, signal: o.signal });
    this.expect(a, [200, 201], 'POST /issues');
    if (typeof a.body.retentionMs === 'number' && a.body.retentionMs > 0) this.knownRetention = a.body.retentionMs;
    return { issue: this.issueOf(a, 'POST /issues'), replayed: a.headers.get('idempotent-replayed') === 'true' };
  }

  /** The issue filed with `key`, or undefined when the tracker certainly has none (404 "unknown key"). */
  async byKey(key: string, signal?: AbortSignal): Promise<(TrackerIssue & { live?: boolean }) | undefined> {
    const where = `/keys/${encodeURIComponent(key)}`;
    const a = await this.request('GET', where, { signal });
    if (a.status === 404 && a.body.error === 'unknown key') return undefined;
    this.expect(a, [200], where);
    const issue = this.issueOf(a, where);
    return typeof a.body.live === 'boolean' ? { ...issue, live: a.body.live } : issue;
  }

  async search(f: IssueFilter, signal?: AbortSignal): Promise<TrackerIssue[]> {
    const q = new URLSearchParams();
    if (f.cause !== undefined) q.set('cause', f.cause);
    if (f.runId !== undefined) q.set('run', f.runId);
    if (f.workspace !== undefined) q.set('workspace', f.workspace);
    const qs = q.toString();
    const where = `/issues${qs ? `?${qs}` : ''}`;
    const a = await this.request('GET', where, { signal });
    this.expect(a, [200], where);
    if (!Array.isArray(a.body.issues)) throw new TrackerError(this.baseUrl, a.status, `${where} answered without an "issues" list`);
    return a.body.issues.map((i) => checkIssue(i, this.baseUrl, where));
  }

  async get(n: number, signal?: AbortSignal): Promise<TrackerIssue | undefined> {
    const where = `/issues/${n}`;
    const a = await this.request('GET', where, { signal });
    if (a.status === 404 && a.body.error === `no issue #${n}`) return undefined;
    this.expect(a, [200], where);
    return this.issueOf(a, where);
  }

  list(signal?: AbortSignal): Promise<TrackerIssue[]> {
    return this.search({}, signal);
  }

  private async request(method: string, where: string, o: { headers?: Record<string, string>; body?: string; signal?: AbortSignal }): Promise<Answer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.baseUrl + where, {
        method,
        headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
        body: o.body,
        signal,
      });
      text = await res.text();
    } catch (e) {
      if (o.signal?.aborted) throw o.signal.reason instanceof Error ? o.signal.reason : e;
      if (timeout.aborted) throw new TrackerError(this.baseUrl, undefined, `no answer to ${method} ${where} within ${this.timeoutMs / 1000} s`);
      throw new TrackerError(this.baseUrl, undefined, describeFetchError(e));
    }
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new TrackerError(this.baseUrl, res.status, `${method} ${where} answered with something that is not JSON; is this URL a Durable Triage tracker?`);
    }
    return { status: res.status, body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}, headers: res.headers };
  }

  private expect(a: Answer, ok: number[], where: string): void {
    if (ok.includes(a.status)) return;
    const err = typeof a.body.error === 'string' ? a.body.error : 'no error message';
    throw new TrackerError(this.baseUrl, a.status, `${where}: ${err}`);
  }

  private issueOf(a: Answer, where: string): TrackerIssue {
    return checkIssue(a.body.issue, this.baseUrl, where);
  }
}

function checkIssue(v: unknown, url: string, where: string): TrackerIssue {
  const i = v as Partial<TrackerIssue> | undefined;
  if (
    !i ||
    typeof i.number !== 'number' ||
    typeof i.title !== 'string' ||
    typeof i.body !== 'string' ||
    typeof i.cause !== 'string' ||
    typeof i.createdAt !== 'string'
  ) {
    throw new TrackerError(url, undefined, `${where} answered with something that is not an issue`);
  }
  const out: TrackerIssue = { number: i.number, title: i.title, body: i.body, cause: i.cause, createdAt: i.createdAt };
  if (typeof i.runId === 'string') out.runId = i.runId;
  if (typeof i.workspace === 'string') out.workspace = i.workspace;
  if (typeof i.key === 'string') out.key = i.key;
  return out;
}

function describeFetchError(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}
