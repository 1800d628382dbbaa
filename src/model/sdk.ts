/**
 * What the vendors' SDKs (@anthropic-ai/sdk, openai) share in our providers.
 *
 * - Each attempt gets its own fetch (AttemptWire): it tells the attempt's inactivity timeout
 *   about every chunk received (keep-alive pings included, which the SDKs do not pass
 *   on), and keeps the body of an error reply so the provider's own message reaches the
 *   user whatever shape the server gives it.
 * - The SDKs' own retries are off (`maxRetries: 0`, see the providers): retry.ts decides,
 *   with backoff and jitter, honouring retry-after, and also retries a stream cut
 *   mid-reply, which the SDKs cannot. Their errors become ours (attempt.ts) here.
 */
import { HttpStatusError, TransientError, AttemptTimeoutError, isAbortError } from './attempt';

export type FetchFn = typeof fetch;

type Clients = typeof import('./sdk-clients');
let clients: Clients | undefined;
/**
 * The SDKs' client classes, loaded on the first live call (see sdk-clients.ts). A plain
 * require: in a bundle it is the file dist/sdk-clients.js beside it (scripts/bundle.mjs).
 */
export function loadClients(): Clients {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (clients ??= require('./sdk-clients') as Clients);
}

/** One attempt's fetch, and the body of the error reply it received, if any. */
export interface AttemptWire {
  fetch: FetchFn;
  errorBody(): string | undefined;
}

/**
 * A fetch that calls `activity()` when the response's headers arrive and on every chunk
 * of its body; a body's errors (a dropped connection) pass through. An error reply's body
 * is read here and kept for errorBody().
 */
export function attemptWire(activity: () => void, base: FetchFn = fetch): AttemptWire {
  let errorText: string | undefined;
  const observed: FetchFn = async (input, init) => {
    const res = await base(input, init);
    activity();
    if (!res.body) return res;
    if (!res.ok) {
      errorText = await res.text().catch(() => '');
      return new Response(errorText, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          activity();
          out.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: observed, errorBody: () => errorText };
}

/** The error classes every Stainless-generated SDK exports (both vendors' SDKs are). */
export interface SdkErrors {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

interface ApiErrorFields {
  status?: number;
  headers?: Headers;
  error?: unknown;
}

/**
 * An error from an SDK request (up to the reply's headers) as one of ours: a status
 * with the provider's message and retry-after, an unreachable server, an attempt that
 * timed out. Anything else (an abort, a bug) is returned as it is.
 */
export function requestError(e: unknown, sdk: SdkErrors, wire: AttemptWire, o: { url: string; timeoutMs: number }): unknown {
  if (e instanceof sdk.APIUserAbortError) return e;
  if (e instanceof sdk.APIConnectionTimeoutError) return new AttemptTimeoutError(o.timeoutMs);
  if (e instanceof sdk.APIConnectionError) return new TransientError(`could not reach ${o.url} (${networkCode(e.cause ?? e)})`, { cause: e });
  if (e instanceof sdk.APIError) {
    const f = e as Error & ApiErrorFields;
    if (f.status !== undefined) {
      const fallback = e.message.replace(new RegExp(`^${f.status}\\s*`), '');
      return new HttpStatusError(f.status, providerMessage(wire.errorBody() ?? '', fallback), f.headers ? retryAfterMs(f.headers) : undefined);
    }
  }
  return e;
}

/**
 * An error met while reading a streamed reply: an error event the server sent (the SDK
 * throws it as an APIError without a status; `fromEvent` gives its status and message),
 * a malformed event, or the connection dropping mid-reply. An abort is returned as it is.
 */
function streamError(e: unknown, sdk: SdkErrors, fromEvent: (body: unknown) => HttpStatusError): unknown {
  if (e instanceof sdk.APIUserAbortError || isAbortError(e)) return e;
  if (e instanceof sdk.APIError && (e as Error & ApiErrorFields).status === undefined) return fromEvent((e as Error & ApiErrorFields).error);
  if (e instanceof SyntaxError) return new TransientError('the reply stream sent a malformed event', { cause: e });
  return new TransientError(`the connection dropped mid-reply (${networkCode(e)})`, { cause: e });
}

/**
 * The events of an SDK stream; an error while reading one becomes ours (streamError).
 * Errors of the consumer's own code are not touched. Stopping early closes the stream.
 */
export async function* sdkEvents<T>(events: AsyncIterable<T>, sdk: SdkErrors, fromEvent: (body: unknown) => HttpStatusError): AsyncGenerator<T> {
  const it = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<T>;
      try {
        r = await it.next();
      } catch (e) {
        throw streamError(e, sdk, fromEvent);
      }
      if (r.done) return;
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}

/** True when a 2xx response is a stream (otherwise it is one JSON document: the server ignored `stream: true`). */
export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').includes('text/event-stream');
}

/** The JSON body of a reply that did not stream; a body cut off or not JSON is a TransientError (worth another attempt). */
export async function readJson(res: Response, signal: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw e;
    throw new TransientError(`the connection dropped mid-reply (${networkCode(e)})`, { cause: e });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TransientError('the reply was not complete JSON');
  }
}

/** The error text in a provider's error body ({error: {message}}, {error: string}, {message}, or the raw text). */
export function providerMessage(text: string, fallback = ''): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof j.error === 'object' && j.error && typeof j.error.message === 'string') return j.error.message;
    if (typeof j.error === 'string') return j.error;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON: use the text
  }
  const t = text.trim().slice(0, 300);
  return t || fallback || 'no error message';
}

/** The delay a response asks for: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now: () => number = Date.now): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const at = Date.parse(ra);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now());
}

/** The system error code under an error (ECONNREFUSED...), else its innermost message. */
function networkCode(e: unknown): string {
  let c: unknown = e;
  for (let i = 0; i < 4 && c instanceof Error; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (!(c.cause instanceof Error)) return c.message;
    c = c.cause;
  }
  return String(e);
}
