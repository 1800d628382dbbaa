/**
 * One attempt of a model call, whatever the provider: the errors an attempt can end with
 * (a status from the server, a transient failure worth another attempt, silence), and
 * the per-attempt inactivity timeout. The vendors' SDKs make the requests (see sdk.ts).
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
export async function withAttemptTimeout<T>(outer: AbortSignal, timeoutMs: number, fn: (signal: AbortSignal, activity: () => void) => Promise<T>): Promise<T> {
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
