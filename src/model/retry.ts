/**
 * Retries for one model call: exponential backoff with jitter on rate limits (429),
 * server errors (500-599, 529 overloaded), dropped connections, replies cut off
 * mid-stream and attempts that timed out; the server's `retry-after-ms` / `retry-after`
 * is honoured. However many attempts it takes, the caller gets one reply (one paid
 * reply in the run state). What cannot be retried, or still fails after the last
 * attempt, becomes a ModelError saying what happened and what to do.
 */
import { ModelError } from '../core/errors';
import { HttpStatusError, TransientError, AttemptTimeoutError, abortError, isAbortError } from './attempt';

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** Most time spent waiting between attempts, summed (default 120 s). */
  maxTotalWaitMs?: number;
  /** First backoff delay (default 1 s); doubles each attempt, up to maxDelayMs (default 30 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Injectable for tests: waits `ms` or rejects when the signal fires. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Injectable for tests: a number in [0, 1) for the jitter. */
  random?: () => number;
  /** Told before each wait (progress lines, logs). */
  onRetry?: (info: { attempt: number; delayMs: number; error: Error }) => void;
}

/** What the provider adds to a ModelError: its name, and a hint per status (e.g. 401: check your key). */
export interface FailureContext {
  provider: string;
  hint(status: number): string | undefined;
}

const DEFAULTS = { maxAttempts: 5, maxTotalWaitMs: 120_000, baseDelayMs: 1_000, maxDelayMs: 30_000 };

export function isRetryable(e: unknown): boolean {
  if (e instanceof HttpStatusError) return e.status === 408 || e.status === 429 || (e.status >= 500 && e.status <= 599);
  return e instanceof TransientError;
}

/** The wait before attempt `attempt + 1`: the server's hint when it gave one, else backoff with jitter. */
export function retryDelay(e: unknown, attempt: number, o: RetryOptions = {}): number {
  if (e instanceof HttpStatusError && e.retryAfterMs !== undefined) return e.retryAfterMs;
  const base = o.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = o.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const full = Math.min(cap, base * 2 ** (attempt - 1));
  const r = (o.random ?? Math.random)();
  return Math.round(full / 2 + (full / 2) * r);
}

/** Waits `ms`; rejects with the abort error as soon as the signal fires, clearing its timer. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, the attempts run out or
 * the next wait would pass the total. A cancelled call rejects with its abort error at
 * once (never retried, never wrapped).
 */
export async function withRetry<T>(run: (attempt: number) => Promise<T>, signal: AbortSignal, ctx: FailureContext, o: RetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, o.maxAttempts ?? DEFAULTS.maxAttempts);
  const maxWait = o.maxTotalWaitMs ?? DEFAULTS.maxTotalWaitMs;
  const wait = o.sleep ?? sleep;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw abortError(signal);
    try {
      return await run(attempt);
    } catch (e) {
      if (signal.aborted || isAbortError(e)) throw signal.aborted ? abortError(signal) : e;
      if (!isRetryable(e)) throw failure(e, attempt, ctx);
      if (attempt >= maxAttempts) throw failure(e, attempt, ctx);
      const delay = retryDelay(e, attempt, o);
      if (waited + delay > maxWait) throw failure(e, attempt, ctx, `the next wait (${seconds(delay)}) would pass the ${seconds(maxWait)} retry limit`);
      o.onRetry?.({ attempt, delayMs: delay, error: e as Error });
      await wait(delay, signal);
      waited += delay;
    }
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The ModelError for the last failure: status and provider message, a hint, and that the run can be resumed. */
export function failure(e: unknown, attempts: number, ctx: FailureContext, why?: string): ModelError {
  const tried = attempts > 1 ? ` after ${attempts} attempts` : '';
  const resumable = 'The run was saved before this call; resume it to try again.';
  if (e instanceof HttpStatusError) {
    const hint = ctx.hint(e.status) ?? defaultHint(e.status);
    return new ModelError(
      `${ctx.provider} returned HTTP ${e.status}${tried}: ${e.providerMessage.replace(/[.\s]+$/, '')}.${hint ? ` ${hint}` : ''}${why ? ` Gave up: ${why}.` : ''} ${resumable}`,
      { cause: e },
    );
  }
  if (e instanceof AttemptTimeoutError) {
    return new ModelError(`${ctx.provider} did not answer${tried}: ${e.message} per attempt.${why ? ` Gave up: ${why}.` : ''} ${resumable}`, { cause: e });
  }
  const msg = (e instanceof Error ? e.message : String(e)).replace(/[.\s]+$/, '');
  return new ModelError(`${ctx.provider} request failed${tried}: ${msg}.${why ? ` Gave up: ${why}.` : ''} ${resumable}`, { cause: e });
}

function defaultHint(status: number): string | undefined {
  if (status === 401) return 'Check your API key.';
  if (status === 403) return 'The API key is not allowed to use this model; check its permissions.';
  if (status === 404) return 'Check the model name and the base URL.';
  if (status === 429) return 'The rate limit was hit; wait a little.';
  if (status >= 500) return 'The provider is having trouble; try again later.';
  return undefined;
}
