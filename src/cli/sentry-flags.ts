/**
 * The CLI's Sentry crash source flags (`--crashes sentry:ORG/PROJECT`): --sentry-url (or
 * SENTRY_URL; default https://sentry.io), --sentry-query (default is:unresolved) and
 * --sentry-limit (default 10). The token is SENTRY_AUTH_TOKEN only: a flag would show it in
 * the process list and the shell's history.
 */
import type { SentryOptions } from '../triage/job';

export const SENTRY_FLAGS = {
  'sentry-url': { type: 'string' },
  'sentry-query': { type: 'string' },
  'sentry-limit': { type: 'string' },
} as const;

export function sentryFromFlags(v: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): SentryOptions {
  const baseUrl = (v['sentry-url'] as string | undefined) ?? env.SENTRY_URL;
  return {
    ...(baseUrl ? { baseUrl } : {}),
    ...(v['sentry-query'] !== undefined ? { query: v['sentry-query'] as string } : {}),
    ...(v['sentry-limit'] !== undefined ? { limit: v['sentry-limit'] as string } : {}),
    ...(env.SENTRY_AUTH_TOKEN ? { token: env.SENTRY_AUTH_TOKEN } : {}),
  };
}
