/**
 * The tracker service: a small node:http server over a TrackerStore, on 127.0.0.1.
 *
 *   POST /issues        {title, body, cause}; headers Idempotency-Key, X-Triage-Run, X-Triage-Workspace
 *                       -> 201 {issue, retentionMs}; a key still kept -> 200, the same issue,
 *                          header Idempotent-Replayed: true; a kept key with another body -> 422
 *   GET  /issues        ?cause=&run=&workspace=  -> {issues}
 *   GET  /issues/:n     -> {issue} | 404
 *   GET  /keys/:key     -> {issue, live} (live: the key is still honoured) | 404 {error: 'unknown key'}
 *   GET  /meta          -> {retentionMs}
 *
 * Every request must name this server in Host, and carry no Origin but its own; a POST must be
 * Content-Type: application/json (request-guard.ts): else 403 or 415, so a web page cannot use it.
 *
 * Keys stay on their issues forever, so a 404 from /keys is certain: no issue was ever
 * filed with that key here. Bad JSON or fields -> 400 with a message saying what to send.
 * Embedded in-process (tests, `triage run`) or run alone (`triage tracker serve`).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyReusedError } from './errors';
import { LIMITS, parseNewIssue, RequestError, tokenHeader, workspaceHeader } from './input';
import { TrackerStore } from './store';
import type { IssueStore } from '../store/issues';
import { checkHostAndOrigin, requireJson } from './request-guard';

export interface TrackerServiceOptions {
  /** Where the issues are stored: a folder (its store is opened and closed by the service)... */
  dir?: string;
  /** ...or a store the caller opened (and closes). */
  store?: IssueStore;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** How long idempotency keys are honoured; default 24 h. */
  retentionMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /** fsync every change (default true). */
  sync?: boolean;
}

export interface TrackerService {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  store: IssueStore;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function startTracker(o: TrackerServiceOptions): Promise<TrackerService> {
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new RangeError(`the tracker listens on loopback only (127.0.0.1), not ${host}`);
  if ((o.dir === undefined) === (o.store === undefined)) throw new TypeError('the tracker needs either a folder (dir) or a store');
  const own = o.store === undefined;
  const store: IssueStore = o.store ?? (await TrackerStore.open(o.dir!, { retentionMs: o.retentionMs, now: o.now, sync: o.sync }));
  const server = http.createServer((req, res) => {
    handle(store, req, res, { host, port: (server.address() as AddressInfo).port }).catch((e: unknown) =>
      send(res, 500, { error: `the tracker failed: ${(e as Error).message}` }),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    if (own) await store.close();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    store,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (own) await store.close();
      })();
      return closing;
    },
  };
}

async function handle(store: IssueStore, req: http.IncomingMessage, res: http.ServerResponse, bound: { host: string; port: number }): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://tracker');
  const parts = url.pathname.split('/').filter((s) => s !== '');
  const method = req.method ?? 'GET';
  try {
    checkHostAndOrigin(req, bound.host, bound.port);
    if (parts.length === 1 && parts[0] === 'issues') {
      if (method === 'POST') return await postIssue(store, req, res);
      if (method === 'GET') {
        const cause = url.searchParams.get('cause') ?? undefined;
        const runId = url.searchParams.get('run') ?? undefined;
        const workspace = url.searchParams.get('workspace') ?? undefined;
        return send(res, 200, { issues: await store.list({ cause, runId, workspace }) });
      }
      return notAllowed(res, 'GET, POST');
    }
    if (method !== 'GET') return notAllowed(res, 'GET');
    if (parts.length === 2 && parts[0] === 'issues') {
      const n = Number(parts[1]);
      if (!/^[1-9]\d*$/.test(parts[1])) throw new RequestError(400, `"${parts[1]}" is not an issue number`);
      const issue = await store.get(n);
      return issue ? send(res, 200, { issue }) : send(res, 404, { error: `no issue #${n}` });
    }
    if (parts.length === 2 && parts[0] === 'keys') {
      const found = await store.byKey(decodeKey(parts[1]));
      return found ? send(res, 200, found) : send(res, 404, { error: 'unknown key' });
    }
    if (parts.length === 1 && parts[0] === 'meta') return send(res, 200, { retentionMs: store.retentionMs });
    return send(res, 404, { error: `no such endpoint: ${method} ${url.pathname}` });
  } catch (e) {
    if (e instanceof RequestError) return send(res, e.status, { error: e.message });
    throw e;
  }
}

async function postIssue(store: IssueStore, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  requireJson(req);
  const key = tokenHeader('Idempotency-Key', req.headers['idempotency-key']);
  const runId = tokenHeader('X-Triage-Run', req.headers['x-triage-run']);
  const workspace = workspaceHeader(req.headers['x-triage-workspace']);
  const input = parseNewIssue(await readBody(req));
  try {
    const { issue, replayed } = await store.file(input, { key, runId, workspace });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    send(res, replayed ? 200 : 201, { issue, retentionMs: store.retentionMs });
  } catch (e) {
    if (e instanceof KeyReusedError) throw new RequestError(422, e.message);
    throw e;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= LIMITS.requestBytes) chunks.push(c);
    });
    req.on('end', () => {
      if (size > LIMITS.requestBytes) reject(new RequestError(413, `the request is ${size} bytes; at most ${LIMITS.requestBytes}`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function decodeKey(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new RequestError(400, `"${s}" is not a URL-encoded key`);
  }
}

function notAllowed(res: http.ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  send(res, 405, { error: `method not allowed; use ${allow}` });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
