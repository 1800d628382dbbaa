/**
 * The authoring model: a ModelProvider that gives a script's replies, one per turn, while
 * the real loop runs the real tools. It measures each request as the loop really sends it
 * (so the recording's `expect` fields are exactly what a replay will see), checks the
 * previous step's results against the script's expectations, and makes realistic usage:
 * input tokens from the request's size, output tokens from the reply's plus some thinking,
 * a latency from the output size.
 */
import type { ModelReply, ToolCall, ToolResult } from '../../src/core/conversation';
import type { ModelProvider, ModelRequest } from '../../src/model/provider';
import { PriceTable } from '../../src/model/prices';
import { estimateRequestTokens } from '../../src/model/estimate';
import { expectOf } from '../../src/model/recording-writer';
import { RECORDING_VERSION, type Recording, type RecordedTurn } from '../../src/model/recording-format';
import type { ScriptStep } from './script';
import { Rng } from '../rng';

/** Tokens a provider adds for tool use (its own system prompt for tools). */
const TOOL_USE_OVERHEAD_TOKENS = 346;
export const AUTHOR_MODEL = 'claude-sonnet-4-5';

export class ScriptMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptMismatchError';
  }
}

export class AuthoringModel implements ModelProvider {
  readonly provider = 'authoring';
  readonly model: string;
  readonly turns: RecordedTurn[] = [];
  /** The first mismatch between the script and the real results (also thrown from complete). */
  failure: ScriptMismatchError | undefined;
  private readonly rng: Rng;
  private readonly usedIds = new Set<string>();
  readonly prices: PriceTable;

  constructor(
    private readonly steps: ScriptStep[],
    readonly task: string,
    o: { model?: string; prices?: PriceTable } = {},
  ) {
    this.model = o.model ?? AUTHOR_MODEL;
    this.prices = o.prices ?? new PriceTable();
    this.rng = new Rng(`author:${task}`);
  }

  /** True once every step has been replied. */
  get finished(): boolean {
    return this.turns.length === this.steps.length;
  }

  async complete(req: ModelRequest, _signal: AbortSignal): Promise<ModelReply> {
    try {
      return this.reply(req);
    } catch (e) {
      if (e instanceof ScriptMismatchError) this.failure ??= e;
      throw e;
    }
  }

  private reply(req: ModelRequest): ModelReply {
    if (req.turn !== this.turns.length)
      throw new ScriptMismatchError(`the loop asked for turn ${req.turn}, but ${this.turns.length} turns were replied (authoring runs never restart)`);
    if (req.turn > 0) this.checkResults(req.turn - 1, req);
    const step = this.steps[req.turn];
    if (!step) throw new ScriptMismatchError(`the script has ${this.steps.length} steps; the loop asked for another after the final answer`);
    const calls: ToolCall[] = step.calls.map((c) => ({ id: this.callId(), name: c.name, args: JSON.stringify(c.args) }));
    const outChars = (step.text?.length ?? 0) + calls.reduce((n, c) => n + c.name.length + c.args.length + 40, 0);
    const usage = {
      inputTokens: estimateRequestTokens(req) + TOOL_USE_OVERHEAD_TOKENS,
      outputTokens: Math.ceil(outChars / 4) + this.rng.int(40, 160),
    };
    const latencyMs = Math.min(4000, Math.max(1500, Math.round(1100 + usage.outputTokens * 9 + this.rng.int(0, 900))));
    const recorded: RecordedTurn['reply'] = { calls, usage };
    if (step.text !== undefined) recorded.text = step.text;
    this.turns.push({ expect: expectOf(req), reply: recorded, latencyMs });
    const reply: ModelReply = { calls: calls.map((c) => ({ ...c })), usage: { ...usage, dollars: this.prices.dollars(this.model, usage) }, model: this.model };
    if (step.text !== undefined) reply.text = step.text;
    return reply;
  }

  /** The step's calls must have results as the script expects (an error or not, text they contain). */
  private checkResults(turn: number, req: ModelRequest): void {
    const step = this.steps[turn];
    const calls = this.turns[turn].reply.calls;
    const last = req.messages[req.messages.length - 1];
    const results = new Map<string, ToolResult>(last?.role === 'tool' ? last.results.map((r) => [r.callId, r]) : []);
    step.calls.forEach((planned, i) => {
      const id = calls[i].id;
      const r = results.get(id);
      const what = `turn ${turn}, call ${i + 1} (${planned.name} ${calls[i].args.slice(0, 120)})`;
      if (!r) throw new ScriptMismatchError(`${what}: no result in the request`);
      const e = planned.expect;
      if (!e) return;
      const isError = r.isError === true;
      if (e.ok !== undefined && e.ok === isError)
        throw new ScriptMismatchError(
          `${what}: expected ${e.ok ? 'success' : 'an error'}, got ${isError ? 'an error' : 'success'}:\n${r.content.slice(0, 2000)}`,
        );
      if (e.match && !e.match.test(r.content)) throw new ScriptMismatchError(`${what}: the result does not match ${e.match}:\n${r.content.slice(0, 2000)}`);
    });
  }

  /** A tool-use ID in the provider's style, unique in the run. */
  private callId(): string {
    for (;;) {
      const id = `toolu_01${this.rng.base62(22)}`;
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  recording(system: string, prompt: string): Recording {
    return { version: RECORDING_VERSION, task: this.task, model: this.model, system, prompt, turns: this.turns };
  }
}
