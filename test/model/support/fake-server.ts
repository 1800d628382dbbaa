/**
 * A scripted HTTP server on 127.0.0.1 for provider tests: each request gets the next
 * scripted answer (a status with a body, an SSE stream that may drop the connection
 * part way, or silence). It records every request, and closes every connection on close().
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'json'; body: unknown }
  /** SSE frames (already formatted); `dropAfter`: destroy the socket after that many frames. `split`: write each frame in two halves. */
  | { kind: 'sse'; frames: string[]; dropAfter?: number; split?: boolean }
  /** Headers then nothing: the client must time out or abort. */
  | { kind: 'hang' };

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  /** Resolves when the n-th request (1-based) has arrived. */
  arrived(n: number): Promise<void>;
  /** Resolves when the connection of the n-th request has closed. */
  closed(n: number): Promise<void>;
  close(): Promise<void>;
}

export function frame(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export async function startServer(script: Answer[]): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const closedWaiters = new Map<number, Promise<void>>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const n = requests.length;
      closedWaiters.set(n, new Promise((resolve) => res.on('close', () => resolve())));
      for (const w of waiters.filter((x) => x.n <= n)) w.resolve();
      const answer = script[n - 1] ?? { kind: 'status', status: 500, body: { error: { message: `no scripted answer for request ${n}` } } };
      respond(answer, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    arrived: (n) => (requests.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    closed: async (n) => {
      while (!closedWaiters.has(n)) await new Promise((r) => setImmediate(r));
      await closedWaiters.get(n);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

function respond(a: Answer, req: http.IncomingMessage, res: http.ServerResponse): void {
  switch (a.kind) {
    case 'status':
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
      return;
    case 'json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
      return;
    case 'hang':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    case 'sse': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frames = a.dropAfter === undefined ? a.frames : a.frames.slice(0, a.dropAfter);
      for (const f of frames) {
        if (a.split) {
          const mid = Math.floor(f.length / 2);
          res.write(f.slice(0, mid));
          res.write(f.slice(mid));
        } else res.write(f);
      }
      if (a.dropAfter !== undefined) {
        // Let the frames leave, then cut the connection without ending the response.
        setImmediate(() => req.socket.destroy());
        return;
      }
      res.end();
      return;
    }
  }
}

/** An injected sleep that records the delays asked for and waits no time. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number, signal: AbortSignal) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      delays.push(ms);
    },
  };
}
