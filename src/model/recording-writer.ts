/**
 * RecordingProvider: wraps a live provider and, after each reply, writes the conversation
 * so far as a Recording (src/model/recording-format.ts) that the recorded model can replay. So
 * `--record FILE` turns a real run into a regression test.
 *
 * The file is rewritten atomically after every reply (temp file, fsync, rename), so a crash
 * leaves the previous complete recording. A resumed run that records to the same file
 * continues it: turns before the resumed turn are kept. A failed write never fails the
 * run (the reply is already paid for): it is reported through `warn`.
 */
import * as path from 'node:path';
import * as fs from 'node:fs/promises';
import type { ModelReply } from '../core/conversation';
import { writeFileAtomic, nonce } from '../disk/atomic-write';
import type { ModelProvider, ModelRequest } from './provider';
import type { PriceTable } from './prices';
import { RECORDING_VERSION, type Recording, type RecordedTurn } from './recording-format';

export interface RecordingInit {
  task: string;
  system: string;
  /** The first user message. */
  prompt: string;
}

export interface RecordingOptions {
  /** Told when the file could not be written, or the recording cannot replay from the start. Default: process.emitWarning. */
  warn?: (message: string) => void;
  /** Milliseconds clock for latencyMs (default Date.now). */
  now?: () => number;
}

/** What the recorded model checks before replaying a turn: the number of messages sent, and the IDs of the tool results that end them. */
export function expectOf(req: ModelRequest): RecordedTurn['expect'] {
  const last = req.messages[req.messages.length - 1];
  return { messages: req.messages.length, toolResults: last?.role === 'tool' ? last.results.map((r) => r.callId) : [] };
}

export function recordedTurn(req: ModelRequest, reply: ModelReply, latencyMs: number): RecordedTurn {
  const { dollars: _dollars, ...usage } = reply.usage;
  const r: RecordedTurn['reply'] = { calls: reply.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })), usage };
  if (reply.text !== undefined) r.text = reply.text;
  if (reply.stopReason !== undefined) r.stopReason = reply.stopReason;
  if (reply.truncated) r.truncated = true;
  return { expect: expectOf(req), reply: r, latencyMs: Math.max(0, Math.round(latencyMs)) };
}

export class RecordingProvider implements ModelProvider {
  readonly provider: string;
  readonly model: string;
  readonly prices: PriceTable;
  private rec: Recording | undefined;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;

  constructor(
    private readonly inner: ModelProvider,
    readonly file: string,
    private readonly init: RecordingInit,
    o: RecordingOptions = {},
  ) {
    this.provider = inner.provider;
    this.model = inner.model;
    this.prices = inner.prices;
    this.warn = o.warn ?? ((m) => process.emitWarning(m, 'RecordingWarning'));
    this.now = o.now ?? Date.now;
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const t0 = this.now();
    const reply = await this.inner.complete(req, signal);
    const turn = recordedTurn(req, reply, this.now() - t0);
    try {
      const rec = this.rec ?? (this.rec = await this.start());
      if (req.turn > rec.turns.length) {
        this.warn(`Recording ${this.file} has ${rec.turns.length} turns but this reply is turn ${req.turn}; it will not replay the run from its start.`);
      }
      rec.turns.length = Math.min(rec.turns.length, req.turn);
      rec.turns.push(turn);
      await writeFileAtomic(this.file, path.join(path.dirname(this.file), `.${path.basename(this.file)}-${nonce()}.tmp`), JSON.stringify(rec, null, 2) + '\n');
    } catch (e) {
      this.warn(`Could not write the recording ${this.file}: ${(e as Error).message}. The run goes on without it.`);
    }
    return reply;
  }

  /** The recording so far (the turns written to the file). */
  recording(): Recording | undefined {
    return this.rec;
  }

  /** A fresh recording, or the file's own when it records this same run (a resumed run continues it). */
  private async start(): Promise<Recording> {
    const fresh: Recording = {
      version: RECORDING_VERSION,
      task: this.init.task,
      model: this.model,
      system: this.init.system,
      prompt: this.init.prompt,
      turns: [],
    };
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch {
      return fresh;
    }
    try {
      const old = JSON.parse(text) as Partial<Recording>;
      if (
        old.version === RECORDING_VERSION &&
        old.task === fresh.task &&
        old.system === fresh.system &&
        old.prompt === fresh.prompt &&
        old.model === fresh.model &&
        Array.isArray(old.turns)
      ) {
        return { ...fresh, turns: old.turns };
      }
    } catch {
      // not a recording: replaced
    }
    return fresh;
  }
}
