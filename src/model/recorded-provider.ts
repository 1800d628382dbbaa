/**
 * The recorded model: replays a recorded conversation (src/model/recording-format.ts) turn by
 * turn, with the recording's tool calls, text, stop reason and token usage, and dollars
 * from the price table. Used when no API key is set (the bundled tasks' demo) and by the tests.
 *
 * It only answers the conversation it was recorded from. Before each reply it checks the
 * request against the recording: the turn exists, the system prompt and (at turn 0) the
 * task are the recorded ones, the number of messages, the call IDs of the tool results
 * just before the request, and the previous assistant message's calls (IDs, names, raw
 * arguments) against the recorded previous reply. Any difference is a
 * RecordingDivergedError saying at which turn and what differs. Tool result contents are
 * NOT compared: paths and timings vary between machines, and a call resolved by the
 * ladder after a crash may word its result differently.
 */
import * as fs from 'node:fs/promises';
import type { Message, ModelReply, ToolCall } from '../core/conversation';
import { BadInputError, RecordingDivergedError } from '../core/errors';
import type { ModelProvider, ModelRequest } from './provider';
import { PriceTable } from './prices';
import { abortError } from './attempt';
import { expectOf } from './recording-writer';
import { validateRecording, type Recording } from './recording-format';

export interface RecordedModelOptions {
  /** Sleep before each reply: milliseconds, or 'recorded' for the turn's recorded latency. Default 0. */
  latency?: number | 'recorded';
}

export class RecordedModel implements ModelProvider {
  readonly provider = 'recorded';
  readonly model: string;

  constructor(
    private readonly recording: Recording,
    readonly prices: PriceTable = new PriceTable(),
    private readonly options: RecordedModelOptions = {},
  ) {
    this.model = recording.model;
  }

  /** Number of turns in the recording. */
  get length(): number {
    return this.recording.turns.length;
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    if (signal.aborted) throw abortError(signal);
    const turn = this.recording.turns[req.turn];
    const where = `the conversation diverged from the recording at turn ${req.turn}`;
    const advice = `The recording of "${this.recording.task}" replays only the conversation it was recorded from; start the run afresh, re-author the recording, or use a live model.`;
    if (!turn) {
      throw new RecordingDivergedError(`${where}: the recording ends after ${this.recording.turns.length} turns. ${advice}`);
    }
    const diff = this.difference(req);
    if (diff) throw new RecordingDivergedError(`${where}: ${diff}. ${advice}`);

    const ms = this.options.latency === 'recorded' ? (turn.latencyMs ?? 0) : (this.options.latency ?? 0);
    if (ms > 0) await sleep(ms, signal);

    const usage = { ...turn.reply.usage, dollars: this.prices.dollars(this.recording.model, turn.reply.usage) };
    const reply: ModelReply = { calls: turn.reply.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })), usage, model: this.recording.model };
    if (turn.reply.text !== undefined) reply.text = turn.reply.text;
    if (turn.reply.stopReason !== undefined) reply.stopReason = turn.reply.stopReason;
    if (turn.reply.truncated) reply.truncated = true;
    return reply;
  }

  /** What differs between the request and the recording at its turn, or undefined when nothing does. */
  private difference(req: ModelRequest): string | undefined {
    const rec = this.recording;
    const turn = rec.turns[req.turn];
    if (req.system !== rec.system) return `the system prompt is not the recorded one (${req.system.length} characters, the recording's ${rec.system.length})`;
    if (req.turn === 0) {
      const first = req.messages[0];
      if (first?.role !== 'user' || first.content !== rec.prompt) return 'the first user message is not the recorded task';
    }
    const got = expectOf(req);
    if (got.messages !== turn.expect.messages) return `expected ${turn.expect.messages} messages, got ${got.messages}`;
    if (!sameList(got.toolResults, turn.expect.toolResults)) {
      return `expected results for ${listOr(turn.expect.toolResults, 'no calls')}, got ${listOr(got.toolResults, 'none')}`;
    }
    if (req.turn > 0) return callsDifference(lastAssistant(req.messages), rec.turns[req.turn - 1].reply.calls);
    return undefined;
  }
}

function lastAssistant(messages: Message[]): ToolCall[] | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant') return m.calls ?? [];
  }
  return undefined;
}

function callsDifference(got: ToolCall[] | undefined, want: ToolCall[]): string | undefined {
  if (got === undefined) return 'the previous reply is missing from the conversation';
  if (got.length !== want.length) {
    return `the previous reply has ${got.length} calls (${listOr(got.map(show), 'none')}), the recorded one ${want.length} (${listOr(want.map(show), 'none')})`;
  }
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    if (g.id !== w.id || g.name !== w.name) return `the previous reply's call ${i + 1} is ${show(g)}, the recorded one ${show(w)}`;
    if (g.args !== w.args) return `the previous reply's call ${w.id} (${w.name}) has other arguments than the recorded one`;
  }
  return undefined;
}

function show(c: ToolCall): string {
  return `${c.id} ${c.name}`;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function listOr(xs: string[], none: string): string {
  return xs.length === 0 ? none : xs.join(', ');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads and validates a recording; a missing or corrupt file is a BadInputError naming it. */
export async function loadRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${(e as Error).message})`;
    throw new BadInputError(
      `Recording ${file} ${why}. Author it again (node out/tools/authoring/author.js TASK) or run with a live model (--model anthropic|openai).`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(
      `Recording ${file} is not valid JSON (${(e as Error).message}); it may be truncated. Author it again or restore it from the package.`,
    );
  }
  try {
    return validateRecording(raw);
  } catch (e) {
    throw new BadInputError(`Recording ${file} is not a valid recording: ${(e as Error).message}. Author it again or restore it from the package.`);
  }
}
