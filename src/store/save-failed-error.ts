/**
 * A save of this handle failed earlier (a disk error, a full disk): what the journal holds after
 * that save is unknown to this process, so it makes no further saves. The files on disk are a
 * state the run really was in; reopening the run carries on from there.
 */
import { TriageError } from '../core/errors';

export class SaveFailedError extends TriageError {
  readonly code = 'save-failed';
  constructor(
    readonly runId: string,
    cause: unknown,
  ) {
    super(
      `An earlier save of run ${runId} failed (${(cause as Error)?.message ?? String(cause)}), so this process saves nothing more. ` +
        `Fix the cause (e.g. free disk space), then resume the run: it carries on from its last completed save.`,
      { cause },
    );
  }
}
