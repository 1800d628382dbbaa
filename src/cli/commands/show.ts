/**
 * `triage show`: a run's current state as JSON, for a person to read (--json: on one line).
 */
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags, usingStore } from '../store-flag';
import { BadInputError } from '../../core/errors';
import { showState } from '../../triage/run-admin';
import { EXIT } from '../exitcodes';

export async function cmdShow(args: string[]): Promise<number> {
  const { values: v } = flags(args, { ...STORE_FLAGS, run: { type: 'string' }, json: { type: 'boolean', default: false } });
  if (!v.run) throw new BadInputError('triage show needs --run ID (see "triage status").');
  const store = storeFromFlags(v, 'triage show');
  const text = await usingStore(store, (s) => showState(s, v.run as string));
  // --json: the same state on one line, for scripts that read stdout's last line.
  process.stdout.write((v.json ? JSON.stringify(JSON.parse(text)) : text) + '\n');
  return EXIT.done;
}
