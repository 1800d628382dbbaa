/**
 * The crash harness's stand-in for the process dying: thrown by crash hooks in tests and the
 * in-process sweep (and by the traced I/O layer when the power is cut). It carries the
 * PROCESS_DEATH brand, so product code (which asks only isProcessDeath) lets it through.
 */
import { PROCESS_DEATH, type ProcessDeath } from '../core/process-death';

/** Simulates the process dying at `point`. */
export class SimulatedCrash extends Error implements ProcessDeath {
  constructor(readonly point: string) {
    super(`simulated crash at ${point}`);
    this.name = 'SimulatedCrash';
  }

  /** The brand, on the prototype (not an own property, so the error prints as before). */
  get [PROCESS_DEATH](): true {
    return true;
  }
}
