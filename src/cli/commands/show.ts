/**
 * `triage show`: a run's current state as JSON, for a person to read (--json: on one line);
 * with --transcript, the run's transcript (its conversation, calls and results, and its durable
 * history: restarts, ladder decisions, answers), the same the editor's Run panel shows
 * (--json: the transcript as one JSON object).
 */
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError } from '../../core/errors';
import { showState } from '../../triage/run-admin';
import { EXIT } from '../exitcodes';
import { loadTranscript } from '../../triage/transcript/load';
import { transcriptText } from '../../triage/transcript/text';

export async function cmdShow(args: string[]): Promise<number> {
  const { values: v } = flags(args, { state: { type: 'string' }, run: { type: 'string' }, json: { type: 'boolean', default: false }, transcript: { type: 'boolean', default: false } });
  if (!v.state || !v.run) throw new BadInputError('triage show needs --state DIR and --run ID (see "triage status").');
  if (v.transcript) {
    const t = await loadTranscript(path.resolve(v.state as string), v.run as string);
    process.stdout.write(v.json ? `${JSON.stringify(t)}\n` : transcriptText(t));
    return EXIT.done;
  }
  const text = await showState(path.resolve(v.state as string), v.run as string);
  // --json: the same state on one line, for scripts that read stdout's last line.
  process.stdout.write((v.json ? JSON.stringify(JSON.parse(text)) : text) + '\n');
  return EXIT.done;
}
