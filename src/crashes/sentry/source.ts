/**
 * A Sentry crash source: `sentry:ORG/PROJECT`, with the base URL (sentry.io, self-hosted Sentry
 * or GlitchTip: the same /api/0/ paths), the issue query and how many issues to take. The base
 * URL, query and limit are saved with the run; the token never is.
 */
import { BadInputError } from '../../core/errors';

export const SENTRY_PREFIX = 'sentry:';
export const DEFAULT_SENTRY_URL = 'https://sentry.io';
export const DEFAULT_SENTRY_QUERY = 'is:unresolved';
export const DEFAULT_SENTRY_LIMIT = 10;
/** Issues taken at most, whatever the limit asked (each costs a request for its latest event). */
export const MAX_SENTRY_LIMIT = 100;

export interface SentryProject {
  org: string;
  project: string;
}

export interface SentrySettings {
  /** Without a trailing slash. */
  baseUrl: string;
  query: string;
  limit: number;
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function isSentrySource(crashes: string | undefined): boolean {
  return crashes !== undefined && crashes.trim().startsWith(SENTRY_PREFIX);
}

/** "sentry:acme/api" → { org: "acme", project: "api" }; BadInputError for anything else. */
export function parseSentrySource(crashes: string): SentryProject {
  const m = /^sentry:([^/]+)\/([^/]+)$/.exec(crashes.trim());
  if (!m || !SLUG.test(m[1]) || !SLUG.test(m[2]))
    throw new BadInputError(
      `"${crashes}" is not a Sentry project: write sentry:ORG/PROJECT with the organization's and the project's slugs (as in the project's URL), e.g. sentry:acme/api.`,
    );
  return { org: m[1], project: m[2] };
}

/** The settings with defaults filled in and checked: an http(s) base URL without user:password@ (it is saved with the run), a limit 1..MAX_SENTRY_LIMIT. */
export function sentrySettings(o: { baseUrl?: string; query?: string; limit?: number | string } = {}): SentrySettings {
  const raw = (o.baseUrl ?? '').trim() || DEFAULT_SENTRY_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadInputError(`The Sentry URL "${raw}" is not a URL: give the address of Sentry, e.g. https://sentry.io or https://glitchtip.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadInputError(`The Sentry URL ${raw} must be http or https.`);
  if (url.username || url.password)
    throw new BadInputError('The Sentry URL must not hold a user or password (it is saved with the run): put the token in SENTRY_AUTH_TOKEN.');
  if (url.search || url.hash) throw new BadInputError(`The Sentry URL ${raw} must not have a query or fragment: give the address Sentry is served at.`);
  const baseUrl = url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\/api\/0$/, '');
  const query = o.query ?? DEFAULT_SENTRY_QUERY;
  const limit = o.limit === undefined || o.limit === '' ? DEFAULT_SENTRY_LIMIT : Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SENTRY_LIMIT)
    throw new BadInputError(`The Sentry issue limit must be a whole number from 1 to ${MAX_SENTRY_LIMIT}, not "${String(o.limit)}".`);
  return { baseUrl, query, limit };
}
