/**
 * What can stop fetching a Sentry project's crash groups at a run's start, each with what to do.
 * They happen before the run is created, so nothing is saved and nothing needs resuming: fix the
 * cause and run the same command again. The token never appears in a message.
 */
import { TriageError } from '../../core/errors';

/** What a message ends with at a run's start (fetching the groups); a later request (a comment) says what happens instead. */
export const NOTHING_STARTED = 'Nothing was started.';

abstract class SentryError extends TriageError {
  constructor(
    readonly source: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** No token (CLI: SENTRY_AUTH_TOKEN; editor: its secret storage), or Sentry refused it (401/403). */
export class SentryAuthError extends SentryError {
  readonly code = 'sentry-auth';
  constructor(source: string, why: 'missing' | 'rejected' | 'forbidden', status?: number, tail = NOTHING_STARTED) {
    super(
      source,
      why === 'missing'
        ? `No Sentry token to read the issues of ${source}: set SENTRY_AUTH_TOKEN (an auth token with the event:read and project:read scopes), or in the editor enter it when asked. ${tail}`
        : why === 'rejected'
          ? `Sentry rejected the token (401) for ${source}: it is wrong, expired or revoked. Set SENTRY_AUTH_TOKEN (or "Durable Triage: Set Sentry Token" in the editor) to a valid token, then run the same command again. ${tail}`
          : `Sentry answered 403 for ${source}: the token may not read this project's issues (it needs the event:read and project:read scopes, and access to the project; commenting needs event:write). Use a token with those scopes, then run the same command again. ${tail}`,
      status,
    );
  }
}

/** 404: no such organization or project (or the token cannot see it). */
export class SentryNotFoundError extends SentryError {
  readonly code = 'sentry-not-found';
  constructor(source: string, baseUrl: string, tail = NOTHING_STARTED) {
    super(
      source,
      `Sentry at ${baseUrl} answered 404 for ${source}: the organization or project does not exist there, or the token cannot see it. Check --crashes sentry:ORG/PROJECT (the slugs in the project's URL) and --sentry-url (self-hosted Sentry or GlitchTip), then run the same command again. ${tail}`,
      404,
    );
  }
}

/** Sentry did not answer, answered 5xx, stayed rate limited, or answered with a shape this version does not read. */
export class SentryUnavailableError extends SentryError {
  readonly code = 'sentry-unavailable';
  constructor(source: string, baseUrl: string, detail: string, status?: number, tail = NOTHING_STARTED) {
    super(
      source,
      `Sentry at ${baseUrl} could not be read for ${source} (${detail}). Check the address (--sentry-url) and that Sentry is up, then run the same command again. ${tail}`,
      status,
    );
  }
}
