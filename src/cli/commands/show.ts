/**
 * `triage show`: a run's current state as JSON, for a person to read (--json: on one line);
 * with --transcript, the run's transcript (its conversation, calls and results, and its durable
 * history: restarts, ladder decisions, answers), the same the editor's Run panel shows
 * (--json: the transcript as one JSON object).
 */
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags, usingStore } from '../store-flag';
import { BadInputError } from '../../core/errors';
import { showState } from '../../triage/run-admin';
import { EXIT } from '../exitcodes';
import { loadTranscript } from '../../transcript/load';
import { transcriptText } from '../../transcript/text';

export async function cmdShow(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    ...STORE_FLAGS,
    run: { type: 'string' },
    json: { type: 'boolean', default: false },
    transcript: { type: 'boolean', default: false },
  });
  if (!v.run) throw new BadInputError('triage show needs --run ID (see "triage status").');
  const store = storeFromFlags(v, 'triage show');
  if (v.transcript) {
    const t = await usingStore(store, (s) => loadTranscript(s, v.run as string));
    process.stdout.write(v.json ? `${JSON.stringify(t)}\n` : transcriptText(t));
    return EXIT.done;
  }
  const text = await usingStore(store, (s) => showState(s, v.run as string));
  // --json: the same state on one line, for scripts that read stdout's last line.
  process.stdout.write((v.json ? JSON.stringify(JSON.parse(text)) : text) + '\n');
  return EXIT.done;
}
