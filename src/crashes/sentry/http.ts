/**
 * Reading Sentry's REST API with `fetch`: the token in the Authorization header (never in a URL
 * or a message), each answer checked against its zod schema, pages followed by the `Link`
 * header (rel="next" with results="true"), and 429 answers honoured: the request waits its
 * Retry-After and tries again, a bounded number of times.
 */
import type { z } from 'zod';
import { SentryAuthError, SentryNotFoundError, SentryUnavailableError } from './errors';

export interface SentryHttpOptions {
  baseUrl: string;
  token: string;
  /** "sentry:acme/api", for messages. */
  source: string;
  /** 429 answers waited out per request, at most (default 3). */
  maxWaits?: number;
  /** A Retry-After longer than this (seconds) is not waited out (default 60). */
  maxWaitSeconds?: number;
  /** Each request's time limit (ms, default 30 s). */
  timeoutMs?: number;
  /** How a wait is made (tests observe the waits). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
  /** What an error's message ends with (default: errors.ts's NOTHING_STARTED, as at a run's start). */
  tail?: string;
}

export interface SentryPage<T> {
  body: T;
  /** The next page's URL, when the Link header has one with results. */
  next?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * GET one URL of the API (absolute, or a path under the base URL). `on404`: what a 404 means
 * here ('not-found': the org or project; 'none': undefined is returned).
 */
export async function sentryGet<S extends z.ZodType>(
  o: SentryHttpOptions,
  url: string,
  schema: S,
  on404: 'not-found' | 'none' = 'not-found',
): Promise<SentryPage<z.infer<S>> | undefined> {
  return sentryRequest(o, 'GET', url, undefined, schema, on404);
}

/** POST a JSON body to a path of the API; the answer checked as sentryGet's is (201 is ok). */
export async function sentryPost<S extends z.ZodType>(
  o: SentryHttpOptions,
  url: string,
  body: unknown,
  schema: S,
  on404: 'not-found' | 'none' = 'not-found',
): Promise<SentryPage<z.infer<S>> | undefined> {
  return sentryRequest(o, 'POST', url, body, schema, on404);
}

async function sentryRequest<S extends z.ZodType>(
  o: SentryHttpOptions,
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  schema: S,
  on404: 'not-found' | 'none',
): Promise<SentryPage<z.infer<S>> | undefined> {
  const full = url.startsWith('http://') || url.startsWith('https://') ? url : `${o.baseUrl}${url}`;
  // The token goes only to the Sentry it was given for: a next link elsewhere is not followed.
  if (new URL(full).origin !== new URL(o.baseUrl).origin)
    throw new SentryUnavailableError(
      o.source,
      o.baseUrl,
      `it pointed to another address for the next page (${new URL(full).origin}), which was not followed`,
      undefined,
      o.tail,
    );
  const maxWaits = o.maxWaits ?? 3;
  const maxWaitSeconds = o.maxWaitSeconds ?? 60;
  for (let waits = 0; ; waits++) {
    let res: Response;
    try {
      res = await (o.fetch ?? fetch)(full, {
        method,
        headers: {
          Authorization: `Bearer ${o.token}`,
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new SentryUnavailableError(o.source, o.baseUrl, `no answer: ${causeOf(e)}`, undefined, o.tail);
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const wait = retryAfterSeconds(res.headers.get('retry-after'));
      if (waits >= maxWaits || wait > maxWaitSeconds)
        throw new SentryUnavailableError(
          o.source,
          o.baseUrl,
          `rate limited (429) ${waits + 1} time(s) in a row, the last asking to wait ${wait} s; try again later`,
          429,
          o.tail,
        );
      await (o.sleep ?? sleep)(wait * 1000);
      continue;
    }
    if (res.status === 401) throw new SentryAuthError(o.source, 'rejected', 401, o.tail);
    if (res.status === 403) throw new SentryAuthError(o.source, method === 'POST' ? 'forbidden-write' : 'forbidden', 403, o.tail);
    if (res.status === 404) {
      await res.body?.cancel();
      if (on404 === 'none') return undefined;
      throw new SentryNotFoundError(o.source, o.baseUrl, o.tail);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new SentryUnavailableError(o.source, o.baseUrl, `it answered ${res.status} ${res.statusText} to ${method} ${pathOf(full)}`, res.status, o.tail);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch (e) {
      throw new SentryUnavailableError(o.source, o.baseUrl, `${method} ${pathOf(full)} did not answer JSON: ${causeOf(e)}`, res.status, o.tail);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SentryUnavailableError(
        o.source,
        o.baseUrl,
        `${method} ${pathOf(full)} answered a shape this version does not read (${issue ? `${issue.path.join('.') || 'the answer'}: ${issue.message}` : 'unknown'})`,
        undefined,
        o.tail,
      );
    }
    const next = nextLink(res.headers.get('link'));
    return { body: parsed.data as z.infer<S>, ...(next ? { next } : {}) };
  }
}

/** The rel="next" URL of a Link header, when it says results="true" (Sentry always sends a next link; results="false" ends). */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const params = m[2];
    if (!/;\s*rel="?next"?/.test(params)) continue;
    const results = /;\s*results="?(\w+)"?/.exec(params);
    if (results && results[1] !== 'true') return undefined;
    return m[1];
  }
  return undefined;
}

/** Retry-After in seconds (a number, or an HTTP date); 1 when missing or unreadable. */
export function retryAfterSeconds(h: string | null, now = Date.now()): number {
  if (h === null || h.trim() === '') return 1;
  if (/^\d+$/.test(h.trim())) return Number(h.trim());
  const at = Date.parse(h);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.ceil((at - now) / 1000));
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}

function causeOf(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  if (err?.cause?.code) return err.cause.code;
  if (err?.cause?.message) return err.cause.message;
  return err?.message ?? String(e);
}
