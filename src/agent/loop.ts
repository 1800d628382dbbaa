/**
 * The durable loop. It saves at five points (SavePoint in durable/savepoints.ts):
 *   (1) RunStarted: the restart count is incremented and saved before anything else;
 *   (2) ReplyArrived: a model reply arrived, before any of its calls run (phase tools);
 *   (3) AttemptMarked: just before each call that can change something (after the yes);
 *   (4) ResultSaved: after each call's result;
 *   (5) PausedOrDone: the run pauses for a person, or finishes.
 * and resumes by phase: done returns the saved answer; model makes the call it was about
 * to make; tools and paused run the saved reply's unanswered calls in order, with marked
 * calls going up the resolution ladder. A reply that was saved is never paid for twice.
 */
import { SavePoint, TOOL_ACTED, type CrashHook } from '../durable/savepoints';
import { addUsage, resultOf, type AttemptMarker, type Message, type Phase, type RunResult, type RunState, type ToolCall, type ToolResult, type Usage } from '../durable/state';
import { CancelledError, LockCompromisedError, MaxResumesError, SimulatedCrash } from '../durable/errors';
import type { RunHandle } from '../durable/handle';
import { recordWrite, verifyWorkspace } from '../durable/ledger';
import type { ModelProvider, ModelRequest } from '../model/provider';
import type { ApprovalAnswer, Approver } from './approver';
import type { Tool, ToolContext, ToolOutput, ToolSet } from './tool';
import { parseArgs } from './args';
import { climbLadder } from './ladder';
import { checkBudget, DEFAULT_MAX_RESTARTS, type Limits } from './budget';
import { idempotencyKey } from './keys';

export type LoopEvent =
  | { type: 'saved'; point: SavePoint; phase: Phase }
  | { type: 'model-call'; turn: number }
  | { type: 'reply'; turn: number; calls: ToolCall[]; text?: string; usage: Usage; total: Usage }
  | { type: 'tool-start'; call: ToolCall }
  | { type: 'tool-end'; call: ToolCall; result: ToolResult }
  | { type: 'ladder'; call: ToolCall; step: 'rerun' | 'lookup' | 'person'; outcome: 'rerun' | 'done' | 'not-done' | 'unsure' | 'later' }
  | { type: 'approval'; call: ToolCall; answer: ApprovalAnswer }
  | { type: 'workspace-verified'; files: number };

export interface ContextPolicy {
  /** Before a model call: may set or extend state.summary; the loop then sends messages.slice(summary.covers). */
  prepare(state: RunState, signal: AbortSignal): Promise<void>;
}

export interface LoopOptions {
  handle: RunHandle;
  state: RunState;
  model: ModelProvider;
  tools: ToolSet;
  approver: Approver;
  limits?: Limits;
  signal?: AbortSignal;
  crash?: CrashHook;
  onEvent?: (e: LoopEvent) => void;
  contextPolicy?: ContextPolicy;
  now?: () => Date;
  /** true when the state was loaded from a checkpoint (a restart); false for a brand-new run. */
  resumed: boolean;
}

type CallsOutcome = 'answered' | 'paused';

export function runLoop(o: LoopOptions): Promise<RunResult> {
  return new Loop(o).run();
}

class Loop {
  private readonly state: RunState;
  private readonly signal: AbortSignal;
  private readonly now: () => Date;
  constructor(private readonly o: LoopOptions) {
    this.state = o.state;
    this.signal = o.signal ?? new AbortController().signal;
    this.now = o.now ?? (() => new Date());
  }

  async run(): Promise<RunResult> {
    const s = this.state;
    if (s.phase === 'done') return resultOf(s);
    if (this.o.resumed) s.restarts += 1;
    await this.save(SavePoint.RunStarted);
    const limit = this.o.limits?.maxRestarts ?? DEFAULT_MAX_RESTARTS;
    if (s.restarts > limit) throw new MaxResumesError(s.runId, s.restarts, limit);
    if (this.o.resumed) {
      await verifyWorkspace(s);
      this.emit({ type: 'workspace-verified', files: Object.keys(s.files ?? {}).length });
    }
    for (;;) {
      this.stopIfCancelled();
      if (s.phase === 'model') {
        if ((await this.modelTurn()) === 'done') return resultOf(s);
      } else if ((await this.runCalls()) === 'paused') {
        return resultOf(s);
      }
    }
  }

  // -- the model -----------------------------------------------------------

  private async modelTurn(): Promise<'done' | 'tools'> {
    const s = this.state;
    checkBudget(s, this.o.limits ?? {});
    await this.o.contextPolicy?.prepare(s, this.signal);
    if (s.inbox && s.inbox.length > 0) {
      s.messages.push({ role: 'user', content: s.inbox.join('\n\n') });
      delete s.inbox;
    }
    const req: ModelRequest = {
      system: s.system,
      messages: s.summary ? s.messages.slice(s.summary.covers) : s.messages,
      tools: [...this.o.tools.values()].map((t) => ({ name: t.name, description: t.description, schema: t.schema })),
      turn: s.turns,
    };
    if (s.summary) req.summary = s.summary;
    this.emit({ type: 'model-call', turn: s.turns });
    let reply;
    try {
      reply = await this.o.model.complete(req, this.signal);
    } catch (e) {
      this.o.handle.assertHeld();
      if (this.signal.aborted && !(e instanceof SimulatedCrash)) throw new CancelledError(s.runId);
      throw e;
    }
    s.usage = addUsage(s.usage, reply.usage);
    s.turns += 1;
    const msg: Message = { role: 'assistant' };
    if (reply.text !== undefined && reply.text !== '') msg.text = reply.text;
    if (reply.calls.length > 0) msg.calls = reply.calls;
    s.messages.push(msg);
    s.lastReply = reply;
    delete s.results;
    delete s.attempts;
    const ev: LoopEvent = { type: 'reply', turn: s.turns - 1, calls: reply.calls, usage: reply.usage, total: s.usage };
    if (reply.text !== undefined) ev.text = reply.text;
    this.emit(ev);
    if (reply.calls.length === 0) {
      s.answer = reply.text ?? '';
      s.phase = 'done';
      await this.save(SavePoint.PausedOrDone);
      return 'done';
    }
    s.phase = 'tools';
    await this.save(SavePoint.ReplyArrived);
    return 'tools';
  }

  // -- the calls of the saved reply ---------------------------------------

  private async runCalls(): Promise<CallsOutcome> {
    const s = this.state;
    const reply = s.lastReply;
    if (!reply) {
      // A paused/tools state without a reply cannot come from this loop; go back to the model.
      s.phase = 'model';
      return 'answered';
    }
    for (const call of reply.calls) {
      if (s.results?.[call.id]) continue;
      this.stopIfCancelled();
      const tool = this.o.tools.get(call.name);
      if (!tool) {
        await this.record(call, { content: `Unknown tool "${call.name}". Available tools: ${[...this.o.tools.keys()].join(', ')}.`, isError: true });
        continue;
      }
      const parsed = parseArgs(call.name, call.args, tool.schema);
      if (!parsed.ok) {
        await this.record(call, { content: parsed.error, isError: true });
        continue;
      }
      const marker = s.attempts?.[call.id];
      if (marker) {
        if ((await this.resolveMarked(call, tool, marker, parsed.args)) === 'paused') return 'paused';
        continue;
      }
      if (tool.needsApproval) {
        const a = await this.askApproval(call, tool, parsed.args);
        if (a === 'later') return 'paused';
        if (a === 'deny') {
          await this.record(call, { content: 'The person denied this call; it was not run.', isError: true });
          continue;
        }
      }
      const key = tool.keyed && s.config.keys ? idempotencyKey(s.runId, call.id) : undefined;
      if (!tool.readOnly) {
        const m: AttemptMarker = { callId: call.id, tool: call.name, startedAt: this.now().toISOString() };
        if (key !== undefined) m.key = key;
        s.attempts = { ...s.attempts, [call.id]: m };
        await this.save(SavePoint.AttemptMarked);
      }
      await this.execute(call, tool, parsed.args, key);
    }
    return 'answered';
  }

  private async resolveMarked(call: ToolCall, tool: Tool, marker: AttemptMarker, args: Record<string, unknown>): Promise<CallsOutcome | 'resolved'> {
    const ctx = this.context(call, marker.key);
    const d = await climbLadder(tool, call, marker, args, ctx, this.now());
    if ('action' in d && d.action === 'done') {
      this.emit({ type: 'ladder', call, step: 'lookup', outcome: 'done' });
      await this.record(call, d.output);
      return 'resolved';
    }
    if ('action' in d) {
      this.emit({ type: 'ladder', call, step: d.step, outcome: d.step === 'lookup' ? 'not-done' : 'rerun' });
      await this.execute(call, tool, args, marker.key);
      return 'resolved';
    }
    this.emit({ type: 'ladder', call, step: 'lookup', outcome: 'unsure' });
    await this.pend(call, 'ladder');
    let ans;
    try {
      ans = await this.o.approver.resolve({ runId: this.state.runId, callId: call.id, tool: call.name, args: call.args, reason: d.reason, startedAt: marker.startedAt }, this.signal);
    } catch (e) {
      if (this.signal.aborted) throw new CancelledError(this.state.runId);
      throw e;
    }
    if (ans.answer === 'later') {
      this.emit({ type: 'ladder', call, step: 'person', outcome: 'later' });
      return 'paused';
    }
    this.unpend(call);
    if (ans.answer === 'done') {
      this.emit({ type: 'ladder', call, step: 'person', outcome: 'done' });
      await this.record(call, { content: ans.result });
      return 'resolved';
    }
    this.emit({ type: 'ladder', call, step: 'person', outcome: 'rerun' });
    await this.execute(call, tool, args, marker.key);
    return 'resolved';
  }

  private async askApproval(call: ToolCall, tool: Tool, args: Record<string, unknown>): Promise<ApprovalAnswer> {
    await this.pend(call, 'approval');
    const d = describe(tool, call, args);
    let answer: ApprovalAnswer;
    try {
      answer = await this.o.approver.approve({ runId: this.state.runId, callId: call.id, tool: call.name, args: call.args, ...d }, this.signal);
    } catch (e) {
      if (this.signal.aborted) throw new CancelledError(this.state.runId);
      throw e;
    }
    this.emit({ type: 'approval', call, answer });
    if (answer !== 'later') this.unpend(call);
    return answer;
  }

  /** Records that a person is asked about the call, saved (save point 5) before asking. */
  private async pend(call: ToolCall, kind: 'approval' | 'ladder'): Promise<void> {
    const s = this.state;
    if (s.phase === 'paused' && s.pending?.some((p) => p.callId === call.id && p.kind === kind)) return;
    s.pending = [...(s.pending ?? []).filter((p) => p.callId !== call.id), { kind, callId: call.id, tool: call.name, args: call.args, askedAt: this.now().toISOString() }];
    s.phase = 'paused';
    await this.save(SavePoint.PausedOrDone);
  }

  /** The person answered: the question leaves the state with the next save. */
  private unpend(call: ToolCall): void {
    const s = this.state;
    const rest = (s.pending ?? []).filter((p) => p.callId !== call.id);
    if (rest.length > 0) s.pending = rest;
    else delete s.pending;
    s.phase = 'tools';
  }

  private context(call: ToolCall, key: string | undefined): ToolContext {
    const s = this.state;
    const ctx: ToolContext = {
      runId: s.runId,
      callId: call.id,
      workspace: s.config.workspace,
      signal: this.signal,
      recordWrite: (rel, content) => recordWrite(this.o.handle, s, rel, content, call.id),
    };
    if (key !== undefined) ctx.key = key;
    return ctx;
  }

  private async execute(call: ToolCall, tool: Tool, args: Record<string, unknown>, key: string | undefined): Promise<void> {
    this.o.handle.assertHeld();
    this.emit({ type: 'tool-start', call });
    let out: ToolOutput;
    try {
      out = await tool.run(args, this.context(call, key));
    } catch (e) {
      if (e instanceof SimulatedCrash || e instanceof LockCompromisedError) throw e;
      if (this.signal.aborted) throw new CancelledError(this.state.runId);
      out = { content: `${call.name} failed: ${(e as Error)?.message ?? String(e)}`, isError: true };
    }
    this.o.crash?.(TOOL_ACTED, { tool: call.name, callId: call.id });
    await this.record(call, out);
  }

  /** Save point 4. When it answers the reply's last call, the results join the messages and the phase is model. */
  private async record(call: ToolCall, out: ToolOutput): Promise<void> {
    const s = this.state;
    const result: ToolResult = { callId: call.id, content: out.content };
    if (out.isError) result.isError = true;
    s.results = { ...s.results, [call.id]: result };
    const rest = (s.pending ?? []).filter((p) => p.callId !== call.id);
    if (rest.length > 0) s.pending = rest;
    else delete s.pending;
    this.emit({ type: 'tool-end', call, result });
    const calls = s.lastReply?.calls ?? [];
    const results = s.results;
    if (calls.every((c) => results[c.id])) {
      s.messages.push({ role: 'tool', results: calls.map((c) => results[c.id]) });
      delete s.results;
      delete s.attempts;
      s.phase = 'model';
    } else {
      s.phase = 'tools';
    }
    await this.save(SavePoint.ResultSaved);
  }

  // -- plumbing --------------------------------------------------------------

  /** Saves ignore cancellation: the save that records where the run stopped always happens. */
  private async save(point: SavePoint): Promise<void> {
    await this.o.handle.save(this.state, point);
    this.emit({ type: 'saved', point, phase: this.state.phase });
    this.o.crash?.(point);
  }

  private stopIfCancelled(): void {
    this.o.handle.assertHeld();
    if (this.signal.aborted) throw new CancelledError(this.state.runId);
  }

  private emit(e: LoopEvent): void {
    this.o.onEvent?.(e);
  }
}

function describe(tool: Tool, call: ToolCall, args: Record<string, unknown>): { title: string; detail: string; diff?: { path: string; before: string; after: string } } {
  try {
    if (tool.describe) return tool.describe(args);
  } catch {
    // A rendering problem must not block the question; fall back to the raw arguments.
  }
  return { title: `${call.name}`, detail: call.args };
}
