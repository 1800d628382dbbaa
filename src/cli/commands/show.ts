/**
 * `triage show`: a run's current state as JSON, for a person to read.
 */
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError } from '../../durable/errors';
import { showState } from '../../triage/job';
import { EXIT } from '../exitcodes';

export async function cmdShow(args: string[]): Promise<number> {
  const { values: v } = flags(args, { state: { type: 'string' }, run: { type: 'string' } });
  if (!v.state || !v.run) throw new BadInputError('triage show needs --state DIR and --run ID (see "triage status").');
  process.stdout.write((await showState(path.resolve(v.state as string), v.run as string)) + '\n');
  return EXIT.done;
}
