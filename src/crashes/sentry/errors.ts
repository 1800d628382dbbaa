/**
 * What can go wrong with Sentry, each with what to do. Fetching a project's crash groups happens
 * before the run is created, so nothing is saved and nothing needs resuming: fix the cause and run
 * the same command again. Commenting on a Sentry issue (sentry_comment) happens mid-run: these are
 * ServiceStopErrors, so the run stops there with the call's attempt marker saved and no result
 * (not an error result the model reads and goes on from), and the resumed run's lookup asks Sentry
 * again before posting. The token never appears in a message.
 */
import { ServiceStopError } from '../../core/errors';

/** What a message ends with at a run's start (fetching the groups); a later request (a comment) says what happens instead. */
export const NOTHING_STARTED = 'Nothing was started.';

abstract class SentryError extends ServiceStopError {
  readonly service: string;
  constructor(
    readonly source: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.service = `Sentry (${source})`;
  }
}

/**
 * No token (CLI: SENTRY_AUTH_TOKEN; editor: its secret storage), or Sentry refused it (401/403;
 * 'forbidden-write': a 403 to a comment, the token reads but lacks event:write).
 */
export class SentryAuthError extends SentryError {
  readonly code = 'sentry-auth';
  constructor(source: string, why: 'missing' | 'rejected' | 'forbidden' | 'forbidden-write', status?: number, tail = NOTHING_STARTED) {
    super(
      source,
      why === 'missing'
        ? `No Sentry token to read the issues of ${source}: set SENTRY_AUTH_TOKEN (an auth token with the event:read and project:read scopes), or in the editor enter it when asked. ${tail}`
        : why === 'rejected'
          ? `Sentry rejected the token (401) for ${source}: it is wrong, expired or revoked. Set SENTRY_AUTH_TOKEN (or "Durable Triage: Set Sentry Token" in the editor) to a valid token, then run the same command again. ${tail}`
          : why === 'forbidden-write'
            ? `Sentry answered 403 for ${source} to a comment: the token may not comment on this project's issues (commenting needs the event:write scope, besides event:read and project:read). Set SENTRY_AUTH_TOKEN (or "Durable Triage: Set Sentry Token" in the editor) to a token with event:write. ${tail}`
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
