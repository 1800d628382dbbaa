/**
 * The durable loop. It saves at five points (SavePoint in store/save-points.ts):
 *   (1) RunStarted: the restart count is incremented and saved before anything else;
 *   (2) ReplyArrived: a model reply arrived, before any of its calls run (phase tools);
 *   (3) AttemptMarked: just before each call that can change something (after the yes);
 *   (4) ResultSaved: after each call's result;
 *   (5) PausedOrDone: the run pauses for a person, or finishes.
 * and resumes by phase: done returns the saved answer; model makes the call it was about
 * to make; tools and paused run the saved reply's unanswered calls in order, with marked
 * calls going up the resolution ladder (ladder.ts). A reply that was saved is never paid
 * for twice. The crash hook is called right after each save, with the save point's name.
 *
 * The loop changes its state only through a StateEdit (it reads it as a StateView), so each
 * save writes exactly what changed since the last one; nothing changed in place goes unsaved.
 *
 * Cancellation: saves ignore it (the save that records where the run stopped always
 * happens); the loop checks the signal before each step, model call and tool call, and
 * stops with CancelledError once what it has done is saved.
 */
import { SavePoint } from '../store/save-points';
import { TOOL_ACTED, type CrashHook } from '../store/crash-points';
import { resultOf, type AttemptMarker, type Phase, type RunResult, type RunState, type WriteRoot } from '../store/state';
import { addUsage, type ContextSummary, type Message, type ModelReply, type ToolCall, type ToolResult, type Usage } from '../core/conversation';
import { CancelledError, LockCompromisedError, MaxResumesError, ReplyCutError, ServiceStopError } from '../core/errors';
import { isProcessDeath } from '../core/process-death';
import type { RunHandle } from '../store/run-handle';
import { StateEdit, type StateView } from '../store/state-edit';
import { beforeWrites, recordWrite, verifyWorkspace } from '../workspace/ledger';
import type { ModelProvider, ModelRequest } from '../model/provider';
import type { ApprovalAnswer, ApprovalRequest, Approver, LadderAnswer } from './approver';
import type { CallDescription, Tool, ToolContext, ToolOutput, ToolSet } from './tool';
import { parseToolArgs, toolSpec } from './tool-args';
import { cutNote } from './notes';
import { climbLadder } from './ladder';
import { checkBudget, DEFAULT_MAX_RESTARTS, type Limits } from './budget';
import { estimateCall } from '../model/estimate';
import { idempotencyKey } from './idempotency-key';
import { uniqueCallIds, usedCallIds } from './call-ids';

export type LoopEvent =
  | { type: 'saved'; point: SavePoint; phase: Phase }
  | { type: 'model-call'; turn: number }
  | { type: 'reply'; turn: number; calls: ToolCall[]; text?: string; usage: Usage; total: Usage }
  | { type: 'tool-start'; call: ToolCall }
  /** What a long call is doing now (a cause's worktree getting its dependencies): shown live, not saved. */
  | { type: 'tool-progress'; call: ToolCall; text: string }
  | { type: 'tool-end'; call: ToolCall; result: ToolResult }
  | { type: 'ladder'; call: ToolCall; step: 'rerun' | 'lookup' | 'person'; outcome: 'rerun' | 'done' | 'not-done' | 'unsure' | 'later'; by?: string }
  | { type: 'approval'; call: ToolCall; answer: ApprovalAnswer; by?: string }
  /** After the first save of a life: a new run, a restart, or a reopening that only asks a saved question again (`reask`, not counted as a restart). */
  | { type: 'started'; resumed: boolean; reask: boolean; restarts: number; phase: Phase; turn: number; nextCall?: string }
  /** The files the run wrote are as it left them: checked on a restart, and again after a person answered a question. */
  | { type: 'workspace-verified'; files: number; after: 'restart' | 'question' };

export interface ContextPolicy {
  /**
   * Before a model call: a new summary of older turns, or undefined to keep the state's (the
   * loop sets it and sends messages.slice(summary.covers) with it). The new summary is saved
   * with the reply at save point 2.
   */
  prepare(state: StateView, signal: AbortSignal): Promise<ContextSummary | undefined>;
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

/** The message a denied call gets as its (error) result. */
export const DENIED = 'The person denied this call.';

/** Replies cut by the token limit in a row before the run stops with ReplyCutError. */
export const MAX_CUT_REPLIES = 3;

/**
 * Drives the run to done or paused and returns its RunResult (phase 'done' or 'paused');
 * every other stop is a typed error: MaxResumesError, WorkspaceChangedError,
 * BudgetExceededError, CancelledError, LockCompromisedError, or the model's error.
 */
export function runLoop(o: LoopOptions): Promise<RunResult> {
  return new Loop(o).run();
}

type CallsOutcome = 'answered' | 'paused';

class Loop {
  /** The only way the loop changes its state; `state` is the same object, read-only. */
  private readonly edit: StateEdit;
  private readonly signal: AbortSignal;
  private readonly now: () => Date;
  constructor(private readonly o: LoopOptions) {
    this.edit = new StateEdit(o.state);
    this.signal = o.signal ?? new AbortController().signal;
    this.now = o.now ?? (() => new Date());
  }

  private get state(): StateView {
    return this.edit.state;
  }

  /** The result handed back: built from the state the loop owns. */
  private result(): RunResult {
    return resultOf(this.edit.raw);
  }

  async run(): Promise<RunResult> {
    const s = this.state;
    if (s.phase === 'done') return this.result();
    // Reopening a run paused on a saved question only asks it again: that is no crash, so it is not counted as a restart.
    const reask = this.o.resumed && s.phase === 'paused' && (s.pending?.length ?? 0) > 0;
    if (this.o.resumed && !reask) this.edit.set('restarts', s.restarts + 1);
    await this.save(SavePoint.RunStarted);
    const started: LoopEvent = { type: 'started', resumed: this.o.resumed, reask, restarts: s.restarts, phase: s.phase, turn: s.turns };
    const next = s.phase === 'model' ? undefined : s.lastReply?.calls.find((c) => !s.results?.[c.id]);
    if (next) started.nextCall = next.id;
    this.emit(started);
    const limit = this.o.limits?.maxRestarts ?? DEFAULT_MAX_RESTARTS;
    if (s.restarts > limit) throw new MaxResumesError(s.runId, s.restarts, limit);
    if (this.o.resumed) await this.verify('restart');
    for (;;) {
      this.stopIfCancelled();
      if (s.phase === 'model') {
        if ((await this.modelTurn()) === 'done') return this.result();
      } else if ((await this.runCalls()) === 'paused') {
        return this.result();
      }
    }
  }

  // -- the model -----------------------------------------------------------

  private async modelTurn(): Promise<'done' | 'tools'> {
    const s = this.state;
    const policy = this.o.contextPolicy;
    if (policy) {
      const summary = await this.guard(() => policy.prepare(s, this.signal));
      if (summary) this.edit.set('summary', summary);
    }
    if (s.inbox && s.inbox.length > 0) {
      this.edit.push({ role: 'user', content: s.inbox.join('\n\n') });
      this.edit.set('inbox', undefined);
    }
    const raw = this.edit.raw;
    const req: ModelRequest = {
      system: s.system,
      // A copy: the provider may keep the request while the loop goes on adding messages.
      messages: raw.messages.slice(s.summary?.covers ?? 0),
      tools: [...this.o.tools.values()].map(toolSpec),
      turn: s.turns,
    };
    if (raw.summary) req.summary = raw.summary;
    // Budgets stop the run before the call that would exceed them (the estimate: this request's input).
    checkBudget(raw, this.o.limits ?? {}, estimateCall(req, this.o.model.model, this.o.model.prices));
    this.stopIfCancelled();
    this.emit({ type: 'model-call', turn: s.turns });
    const got = await this.guard(() => this.o.model.complete(req, this.signal));
    const reply: ModelReply = { ...got, calls: uniqueCallIds(got.calls, usedCallIds(raw.messages), s.turns) };
    this.edit.set('usage', addUsage(raw.usage, reply.usage));
    this.edit.set('turns', s.turns + 1);
    const msg: Message = { role: 'assistant' };
    if (reply.text !== undefined && reply.text !== '') msg.text = reply.text;
    if (reply.calls.length > 0) msg.calls = reply.calls;
    this.edit.push(msg);
    this.edit.set('lastReply', reply);
    this.edit.set('results', undefined);
    this.edit.set('attempts', undefined);
    const ev: LoopEvent = { type: 'reply', turn: s.turns - 1, calls: reply.calls, usage: reply.usage, total: raw.usage };
    if (reply.text !== undefined) ev.text = reply.text;
    this.emit(ev);
    if (reply.truncated) {
      // A reply cut by the token limit is never the run's answer: it is saved (paid once), the
      // model is told, and the run goes on: its calls run (a cut call fails on its arguments),
      // or, with none, the next model call continues it. Too many in a row stop the run.
      const inARow = (s.cutReplies ?? 0) + 1;
      this.edit.set('cutReplies', inARow);
      this.edit.set('inbox', [...(s.inbox ?? []), cutNote(reply.stopReason ?? 'unknown')]);
      this.edit.set('phase', reply.calls.length > 0 ? 'tools' : 'model');
      await this.save(SavePoint.ReplyArrived);
      if (inARow >= MAX_CUT_REPLIES) throw new ReplyCutError(s.runId, inARow, reply.stopReason ?? 'unknown');
      return 'tools';
    }
    if (s.cutReplies !== undefined) this.edit.set('cutReplies', undefined);
    if (reply.calls.length === 0) {
      this.edit.set('answer', reply.text ?? '');
      this.edit.set('phase', 'done');
      await this.save(SavePoint.PausedOrDone);
      return 'done';
    }
    this.edit.set('phase', 'tools');
    await this.save(SavePoint.ReplyArrived);
    return 'tools';
  }

  // -- the calls of the saved reply ---------------------------------------

  private async runCalls(): Promise<CallsOutcome> {
    const s = this.state;
    const reply = s.lastReply;
    if (!reply) {
      // A tools/paused state without a reply cannot come from this loop; go back to the model.
      this.edit.set('phase', 'model');
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
      const parsed = parseToolArgs(tool, call.args);
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
        const settled = await this.settledBeforeApproval(call, tool, parsed.args);
        if (settled) {
          await this.record(call, settled);
          continue;
        }
        const a = await this.askApproval(call, tool, parsed.args);
        if (a === 'later') return 'paused';
        if (a === 'deny') {
          await this.record(call, { content: DENIED, isError: true });
          continue;
        }
        // Cancelled during the question: the saved state still holds the approval, asked again on resume.
        this.stopIfCancelled();
      }
      const key = tool.keyed && s.config.keys ? idempotencyKey(s.runId, call.id) : undefined;
      if (!tool.readOnly) {
        const m: AttemptMarker = { callId: call.id, tool: call.name, startedAt: this.now().toISOString() };
        if (key !== undefined) {
          m.key = key;
          const retention = await this.retentionOf(tool);
          if (retention !== undefined) m.retentionMs = retention;
        }
        const before = await this.beforeWrites(call, tool, parsed.args);
        if (before) m.before = before;
        this.edit.put('attempts', call.id, m);
        await this.save(SavePoint.AttemptMarked);
      }
      await this.execute(call, tool, parsed.args, key);
    }
    return 'answered';
  }

  /** A marked call with no result goes up the ladder; a rerun keeps the marker (same key, same startedAt). */
  private async resolveMarked(call: ToolCall, tool: Tool, marker: AttemptMarker, args: unknown): Promise<CallsOutcome | 'resolved'> {
    const d = await this.guard(() => climbLadder(tool, call, marker, args, this.context(call, marker.key), this.now()));
    if (d.step !== 'person') {
      if (d.action === 'done') {
        this.emit({ type: 'ladder', call, step: 'lookup', outcome: 'done' });
        await this.record(call, d.output);
      } else {
        this.emit({ type: 'ladder', call, step: d.step, outcome: d.step === 'lookup' ? 'not-done' : 'rerun' });
        await this.execute(call, tool, args, marker.key);
      }
      return 'resolved';
    }
    if (d.lookupFailed) this.emit({ type: 'ladder', call, step: 'lookup', outcome: 'unsure' });
    await this.pend(call, 'ladder');
    const q = { runId: this.state.runId, callId: call.id, tool: call.name, args: call.args, reason: d.reason, startedAt: marker.startedAt };
    const ans: LadderAnswer = await this.guard(() => this.o.approver.resolve(q, this.signal));
    this.emit({ type: 'ladder', call, step: 'person', outcome: ans.answer, ...this.answeredBy(call) });
    if (ans.answer === 'later') return 'paused';
    await this.verify('question');
    this.unpend(call);
    if (ans.answer === 'done') {
      await this.record(call, { content: ans.result });
    } else {
      this.stopIfCancelled();
      await this.execute(call, tool, args, marker.key);
    }
    return 'resolved';
  }

  /**
   * How long the tool's service keeps keys, asked before the call so the marker can carry it.
   * A service that cannot say now leaves it unset: the ladder then asks again, and an answer
   * it cannot get means the key is not known to be kept.
   */
  private async retentionOf(tool: Tool): Promise<number | undefined> {
    try {
      return await this.guard(() => tool.keyed!.retention(this.signal));
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof CancelledError) throw e;
      return undefined;
    }
  }

  /** The files the call will write, as they are before it (kept with its marker, see ledger.beforeWrites). */
  private async beforeWrites(call: ToolCall, tool: Tool, args: unknown): Promise<Record<string, string> | undefined> {
    if (!tool.writes) return undefined;
    // Where it writes, when not the workspace (a cause's worktree, made now if need be).
    let root: WriteRoot | undefined;
    try {
      root = tool.writesIn ? await this.guard(() => tool.writesIn!(args, this.signal, (text) => this.emit({ type: 'tool-progress', call, text }))) : undefined;
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof CancelledError) throw e;
      return undefined; // the call meets the same trouble when it runs, and says so
    }
    let paths: string[];
    try {
      paths = tool.writes(args, root ? root.dir : this.state.config.workspace);
    } catch {
      return undefined; // the tool refuses these arguments when it runs
    }
    this.o.handle.assertHeld();
    return beforeWrites(this.o.handle, this.edit.raw, paths, root);
  }

  /** The tool's read-only check before a person is asked (see Tool.settledBeforeApproval); a check that fails asks the person as before. */
  private async settledBeforeApproval(call: ToolCall, tool: Tool, args: unknown): Promise<ToolOutput | undefined> {
    if (!tool.settledBeforeApproval) return undefined;
    try {
      return await this.guard(() => tool.settledBeforeApproval!(args, this.context(call, undefined)));
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof CancelledError) throw e;
      return undefined;
    }
  }

  private async askApproval(call: ToolCall, tool: Tool, args: unknown): Promise<ApprovalAnswer> {
    await this.pend(call, 'approval');
    const req: ApprovalRequest = { runId: this.state.runId, callId: call.id, tool: call.name, args: call.args, ...describe(tool, call, args) };
    const answer = await this.guard(() => this.o.approver.approve(req, this.signal));
    this.emit({ type: 'approval', call, answer, ...this.answeredBy(call) });
    if (answer === 'later') return answer;
    // The question may have been open for a long time: files the run wrote may have been edited meanwhile.
    await this.verify('question');
    if (answer === 'approve') this.unpend(call);
    return answer;
  }

  /** Who answered the call's question, when the approver can say (for the run's history). */
  private answeredBy(call: ToolCall): { by?: string } {
    const by = this.o.approver.answeredBy?.(this.state.runId, call.id);
    return by ? { by } : {};
  }

  /** Stops with WorkspaceChangedError when a file the run wrote no longer matches the ledger. */
  private async verify(after: 'restart' | 'question'): Promise<void> {
    await verifyWorkspace(this.edit.raw);
    this.emit({ type: 'workspace-verified', files: Object.keys(this.state.files ?? {}).length, after });
  }

  /**
   * Saves (save point 5) that a person is asked about the call, before asking. On resume the
   * same question is already saved: it is asked again without a second entry or save.
   */
  private async pend(call: ToolCall, kind: 'approval' | 'ladder'): Promise<void> {
    const s = this.state;
    if (s.phase === 'paused' && s.pending?.some((p) => p.callId === call.id && p.kind === kind)) return;
    this.edit.set('pending', [
      ...(this.edit.raw.pending ?? []).filter((p) => p.callId !== call.id),
      { kind, callId: call.id, tool: call.name, args: call.args, askedAt: this.now().toISOString() },
    ]);
    this.edit.set('phase', 'paused');
    await this.save(SavePoint.PausedOrDone);
  }

  /** The person answered: the question leaves the state with the next save (the marker's or the result's). */
  private unpend(call: ToolCall): void {
    this.dropPending(call.id);
    this.edit.set('phase', 'tools');
  }

  private dropPending(callId: string): void {
    const pending = this.state.pending;
    if (!pending?.some((p) => p.callId === callId)) return;
    const rest = this.edit.raw.pending!.filter((p) => p.callId !== callId);
    this.edit.set('pending', rest.length > 0 ? rest : undefined);
  }

  private context(call: ToolCall, key: string | undefined): ToolContext {
    const s = this.state;
    const ctx: ToolContext = {
      runId: s.runId,
      callId: call.id,
      workspace: s.config.workspace,
      signal: this.signal,
      recordWrite: (rel, content, root) => recordWrite(this.o.handle, this.edit, rel, content, call.id, root),
      progress: (text) => this.emit({ type: 'tool-progress', call, text }),
    };
    if (key !== undefined) ctx.key = key;
    return ctx;
  }

  /**
   * Runs the call (the lock checked first); a thrown error becomes an error result, except a
   * crash, a lost lock, a cancellation, or a service that cannot be used now (ServiceStopError:
   * the run stops with the call's marker saved and no result, and a resume asks the ladder).
   */
  private async execute(call: ToolCall, tool: Tool, args: unknown, key: string | undefined): Promise<void> {
    this.stopIfCancelled();
    this.emit({ type: 'tool-start', call });
    let out: ToolOutput;
    try {
      out = await tool.run(args, this.context(call, key));
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof ServiceStopError) throw e;
      if (this.signal.aborted) throw this.cancelled();
      out = { content: `${call.name} failed: ${e instanceof Error ? e.message : String(e)}`, isError: true };
    }
    this.o.crash?.(TOOL_ACTED, { tool: call.name, callId: call.id });
    await this.record(call, out);
  }

  /** Save point 4. When it answers the reply's last call, the results join the messages and the phase is model, in the same save. */
  private async record(call: ToolCall, out: ToolOutput): Promise<void> {
    const result: ToolResult = { callId: call.id, content: out.content };
    if (out.isError) result.isError = true;
    this.edit.put('results', call.id, result);
    this.dropPending(call.id);
    this.emit({ type: 'tool-end', call, result });
    const raw = this.edit.raw;
    const calls = raw.lastReply?.calls ?? [];
    const results = raw.results!;
    if (calls.every((c) => results[c.id])) {
      this.edit.push({ role: 'tool', results: calls.map((c) => results[c.id]) });
      this.edit.set('results', undefined);
      this.edit.set('attempts', undefined);
      this.edit.set('phase', 'model');
    } else {
      this.edit.set('phase', 'tools');
    }
    await this.save(SavePoint.ResultSaved);
  }

  // -- plumbing --------------------------------------------------------------

  /** Saves ignore cancellation: the save that records where the run stopped always happens. */
  private async save(point: SavePoint): Promise<void> {
    await this.o.handle.save(this.edit, point);
    this.emit({ type: 'saved', point, phase: this.state.phase });
    this.o.crash?.(point);
  }

  /** Before each step: a lost lock, then a cancellation, stops the run (everything done so far is saved). */
  private stopIfCancelled(): void {
    this.o.handle.assertHeld();
    if (this.signal.aborted) throw this.cancelled();
  }

  /** The cancellation to stop with: the abort's own reason when it is one (it says why: a closing window is no person's Cancel). */
  private cancelled(): CancelledError {
    const reason: unknown = this.signal.reason;
    return new CancelledError(this.state.runId, reason instanceof CancelledError ? reason.why : undefined);
  }

  /**
   * Awaits work that takes the signal (model, context policy, person, lookup). Its failure
   * propagates, except that a lost lock becomes LockCompromisedError and a cancellation
   * CancelledError; a simulated crash passes untouched.
   */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof CancelledError) throw e;
      this.o.handle.assertHeld();
      if (this.signal.aborted) throw this.cancelled();
      throw e;
    }
  }

  private emit(e: LoopEvent): void {
    this.o.onEvent?.(e);
  }
}

function describe(tool: Tool, call: ToolCall, args: unknown): CallDescription {
  try {
    if (tool.describe) return tool.describe(args);
  } catch {
    // A rendering problem must not block the question; fall back to the raw arguments.
  }
  return { title: call.name, detail: call.args };
}
