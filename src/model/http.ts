/**
 * The HTTP side of a model call, shared by the Anthropic and OpenAI providers: one POST
 * per attempt with a per-attempt inactivity timeout, status errors carrying the
 * provider's own message and retry hints, and a Server-Sent Events reader.
 *
 * Errors thrown here are plain (not TriageErrors): retry.ts decides which are worth
 * another attempt and turns the last one into a ModelError.
 */

/** A non-2xx answer. `providerMessage` is the provider's own error text. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly providerMessage: string,
    /** Delay the server asked for (retry-after-ms, or retry-after in seconds or as an HTTP date). */
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}: ${providerMessage}`);
    this.name = 'HttpStatusError';
  }
}

/** A failure that another attempt may not meet: a reset or refused connection, a reply cut off mid-stream. */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** An attempt that received nothing for `timeoutMs`. */
export class AttemptTimeoutError extends TransientError {
  constructor(readonly timeoutMs: number) {
    super(`no answer for ${Math.round(timeoutMs / 1000)} s`);
    this.name = 'AttemptTimeoutError';
  }
}

/** The error a cancelled call rejects with: the signal's reason when it is an Error, else an AbortError. */
export function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r;
  const e = new Error('The model call was cancelled.');
  e.name = 'AbortError';
  return e;
}

export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}

/**
 * Runs one attempt under its own AbortSignal, which fires when the caller's signal does
 * or when `timeoutMs` pass without `activity()` being called (the attempt calls it on every
 * chunk it receives, so a long streamed reply is fine while a silent server is not).
 * Rejects promptly on the caller's abort, whatever `fn` does, and leaves no timer behind.
 */
export async function withAttemptTimeout<T>(
  outer: AbortSignal,
  timeoutMs: number,
  fn: (signal: AbortSignal, activity: () => void) => Promise<T>,
): Promise<T> {
  if (outer.aborted) throw abortError(outer);
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let rejectStop: (e: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (rejectStop = reject));
  const stop = (e: Error): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!ac.signal.aborted) ac.abort(e);
    rejectStop(e);
  };
  const activity = (): void => {
    if (ac.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => stop(new AttemptTimeoutError(timeoutMs)), timeoutMs);
  };
  const onAbort = (): void => stop(abortError(outer));
  outer.addEventListener('abort', onAbort, { once: true });
  activity();
  const work = fn(ac.signal, activity);
  work.catch(() => {}); // when `stopped` wins, the attempt's own rejection is expected and dropped
  try {
    return await Promise.race([work, stopped]);
  } catch (e) {
    if (outer.aborted) throw abortError(outer);
    const reason: unknown = ac.signal.reason;
    if (reason instanceof AttemptTimeoutError) throw reason;
    throw e;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}

export type FetchFn = typeof fetch;

/**
 * POSTs JSON and returns the response when its status is 2xx; otherwise throws
 * HttpStatusError with the provider's message and retry hints. Connection failures
 * become TransientError naming the address.
 */
export async function postJson(
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new TransientError(`could not reach ${url} (${networkCode(e)})`, { cause: e });
  }
  if (res.ok) return res;
  let text = '';
  try {
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw e;
  }
  throw new HttpStatusError(res.status, providerMessage(text, res.statusText), retryAfterMs(res.headers));
}

/** The error text in a provider's error body ({error: {message}}, {message}, or the raw text). */
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

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The events of a Server-Sent Events body. A read that fails (the connection dropped)
 * becomes TransientError; the caller decides whether a clean end came too early.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal: AbortSignal, activity: () => void): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let event = '';
  let data: string[] = [];
  let finished = false;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        if (signal.aborted) throw e;
        throw new TransientError(`the connection dropped mid-reply (${networkCode(e)})`, { cause: e });
      }
      if (chunk.done) {
        buf += decoder.decode();
        if (buf !== '') buf += '\n'; // a last line without its newline still counts
      }
      else {
        activity();
        buf += decoder.decode(chunk.value, { stream: true });
      }
      let nl: number;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        if (!chunk.done && nl === buf.length - 1 && buf[nl] === '\r') break; // maybe the first half of \r\n
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
      }
      if (chunk.done) {
        finished = true;
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        return;
      }
    }
  } finally {
    // A consumer that stopped early (or an error) must not leave the connection half read.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** True when a 2xx response is a stream (otherwise it is one JSON document: the server ignored `stream: true`). */
export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').includes('text/event-stream');
}

/** The JSON body of a non-streamed reply; a body cut off or not JSON is a TransientError (worth another attempt). */
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
