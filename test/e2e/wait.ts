// Polling waits: every wait has a timeout and says what it was waiting for.
import { timedSpan } from './spans';

export class WaitTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, last?: unknown) {
    const detail = last === undefined ? '' : ` (last: ${last instanceof Error ? last.message : String(last)})`;
    super(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    this.name = 'WaitTimeoutError';
  }
}

/** Thrown from a probe to stop waiting at once (a condition that can no longer come true). */
export class WaitAbortedError extends Error {
  override name = 'WaitAbortedError';
}

export interface WaitOptions {
  /** What is awaited, for the timeout message: "code-server to answer /healthz". */
  what: string;
  timeoutMs: number;
  intervalMs?: number;
}

/**
 * Calls probe until it returns a value other than undefined/false, and returns that value.
 * A probe that throws counts as "not yet"; its last error goes into the timeout message;
 * a WaitAbortedError stops the wait at once and is rethrown.
 */
export function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, opts: WaitOptions): Promise<T> {
  return timedSpan('editor wait', opts.what, () => poll(probe, opts));
}

async function poll<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.intervalMs ?? 100;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      if (e instanceof WaitAbortedError) throw e;
      last = e;
    }
    if (Date.now() >= deadline) throw new WaitTimeoutError(opts.what, opts.timeoutMs, last);
    await new Promise((r) => setTimeout(r, interval));
  }
}
