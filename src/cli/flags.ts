/**
 * Strict flag parsing: an unknown flag or a missing value is bad input, with the usage.
 */
import { parseArgs } from 'node:util';
import { BadInputError } from '../core/errors';
import { USAGE } from './usage';

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>;
export type FlagValues = Record<string, string | boolean | undefined>;

export function flags(args: string[], options: FlagSpec): { values: FlagValues; positionals: string[] } {
  try {
    const r = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: r.values as FlagValues, positionals: r.positionals };
  } catch (e) {
    throw new BadInputError(`${(e as Error).message}\n\n${USAGE}`);
  }
}
