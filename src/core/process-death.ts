/**
 * The one question product code asks of an error that may stand for the process dying where it
 * was thrown: isProcessDeath(e). Such an error (the crash harness's SimulatedCrash, in
 * src/sweep) carries the PROCESS_DEATH brand. A process death is never caught, retried,
 * reported or cleaned up after: it propagates untouched and leaves the files exactly as a real
 * death would. Product code never throws one; it only lets one through.
 */

/** The brand a simulated process death carries (a registered symbol, so every copy of this module agrees). */
export const PROCESS_DEATH: unique symbol = Symbol.for('durable-triage.process-death');

/** What anything that simulates a process death implements. */
export interface ProcessDeath {
  readonly [PROCESS_DEATH]: true;
}

/** True when `e` stands for the process dying at the point it was thrown. */
export function isProcessDeath(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as Partial<ProcessDeath>)[PROCESS_DEATH] === true;
}
