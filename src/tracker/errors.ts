/**
 * The tracker's typed errors: a dead or erroring tracker (seen by the client), a store
 * that cannot be read back, and a store already open in another process.
 */
import { TriageError } from '../core/errors';

export { KeyReusedError } from '../store/issues';

/** The tracker did not answer, or answered with an error status. */
export class TrackerError extends TriageError {
  readonly code = 'tracker-error';
  constructor(
    readonly url: string,
    /** The HTTP status, when the tracker answered at all. */
    readonly status: number | undefined,
    detail: string,
  ) {
    super(
      status === undefined
        ? `The tracker at ${url} is not answering (${detail}). Start it with "triage tracker serve --dir DIR --port PORT" and pass its URL, or run without --tracker to use the embedded one.`
        : `The tracker at ${url} answered ${status}: ${detail}`,
    );
  }
}

/** The tracker's issue file cannot be read back (truncated, not JSON, a bad field). */
export class TrackerStoreCorruptError extends TriageError {
  readonly code = 'tracker-store-corrupt';
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`The tracker's issue file ${file} is corrupt: ${detail}. It was left as it is; restore it or move it aside to start an empty tracker.`);
  }
}

/** Another process kept the tracker store's lock longer than a filing waits for it. */
export class TrackerLockedError extends TriageError {
  readonly code = 'tracker-locked';
  constructor(
    readonly dir: string,
    readonly owner?: string,
    readonly waitedMs?: number,
  ) {
    super(
      `The tracker store ${dir} stayed locked by another process${owner ? ` (${owner})` : ''}` +
        `${waitedMs !== undefined ? ` for more than ${waitedMs / 1000} s` : ''}; nothing was filed. ` +
        'A filing holds it for milliseconds: check for a hung triage or tracker process, then try again.',
    );
  }
}
