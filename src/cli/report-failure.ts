/**
 * How a command's failure reaches the person: one line on stderr (the message of a typed error or
 * of bad input, else the stack) and the exit status its kind maps to (exitcodes.ts). Shared by the
 * CLI's main and the crash sweep's entry (src/sweep/cli.ts), which bin/triage.js loads apart.
 */
import { TriageError } from '../core/errors';
import { EXIT, exitCodeOf } from './exitcodes';

export function reportFailure(e: unknown): number {
  const code = exitCodeOf(e);
  const msg = e instanceof TriageError || code === EXIT.badInput ? (e as Error).message : ((e as Error)?.stack ?? String(e));
  process.stderr.write(`triage: ${msg}\n`);
  return code;
}
