/**
 * `triage answer --store URL --run ID --call CALL (--approve | --deny | --done TEXT | --rerun)`:
 * answers a question a paused run waits on in a PostgreSQL store, for the worker that continues
 * it (the editor connected to the store does the same from its notifications).
 */
import { flags } from '../flags';
import { BadInputError } from '../../core/errors';
import { queueStoreFromFlags, STORE_FLAGS, usingStore } from '../store-flag';
import type { StoredAnswer } from '../../store/answers';
import { EXIT } from '../exitcodes';
import * as os from 'node:os';

export async function cmdAnswer(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    ...STORE_FLAGS,
    run: { type: 'string' },
    call: { type: 'string' },
    approve: { type: 'boolean', default: false },
    deny: { type: 'boolean', default: false },
    done: { type: 'string' },
    rerun: { type: 'boolean', default: false },
  });
  if (!v.run || !v.call) throw new BadInputError('triage answer needs --run ID and --call CALL (see "triage status --store URL").');
  const given: StoredAnswer[] = [];
  if (v.approve) given.push({ kind: 'approval', answer: 'approve' });
  if (v.deny) given.push({ kind: 'approval', answer: 'deny' });
  if (v.done !== undefined) given.push({ kind: 'ladder', answer: 'done', result: v.done as string });
  if (v.rerun) given.push({ kind: 'ladder', answer: 'rerun' });
  if (given.length !== 1)
    throw new BadInputError("triage answer needs exactly one of --approve, --deny (an approval), --done TEXT, --rerun (the ladder's question).");
  const store = queueStoreFromFlags(v, 'triage answer');
  const r = await usingStore(store, () =>
    store.answers().put(v.run as string, v.call as string, given[0], `${os.userInfo().username}@${os.hostname()} (triage answer)`),
  );
  if (r === 'not-waiting')
    throw new BadInputError(`Run ${v.run} is not waiting on a ${given[0].kind} question for call ${v.call}; see "triage status --store URL".`);
  if (r === 'answered-before') throw new BadInputError(`That question of run ${v.run} was answered already; the first answer stands.`);
  process.stdout.write(`recorded: a worker will continue run ${v.run}\n`);
  return EXIT.done;
}
