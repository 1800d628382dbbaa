/**
 * `--max-turns N --max-dollars D --max-tokens N --max-restarts N`: a run's limits, for
 * `triage run` and `triage worker`. Turns and dollars not given are the defaults of
 * agent/budget.ts (DEFAULT_LIMITS), applied by the job; "none" lifts a limit.
 */
import { BadInputError } from '../core/errors';
import type { Limits } from '../agent/budget';
import type { FlagSpec, FlagValues } from './flags';

export const LIMIT_FLAGS: FlagSpec = {
  'max-turns': { type: 'string' },
  'max-dollars': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-restarts': { type: 'string' },
};

const KEYS = [
  ['max-turns', 'maxTurns'],
  ['max-dollars', 'maxDollars'],
  ['max-tokens', 'maxTokens'],
  ['max-restarts', 'maxRestarts'],
] as const;

export function limitsFromFlags(v: FlagValues): Limits {
  const limits: Limits = {};
  for (const [flag, key] of KEYS) {
    const raw = v[flag] as string | undefined;
    if (raw === undefined) continue;
    if (raw.trim().toLowerCase() === 'none') {
      limits[key] = Infinity;
      continue;
    }
    const n = raw.trim() === '' ? NaN : Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new BadInputError(`--${flag} must be a non-negative number (or "none" for no limit), not "${raw}".`);
    limits[key] = n;
  }
  return limits;
}
