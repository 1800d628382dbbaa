/**
 * Synthetic runs in the loop's pattern (src/agent/loop.ts): per turn a reply with one to three
 * calls (save point 2), an attempt marker before each call that changes something (3), a
 * result per call (4; the last one appends the tool message), and the final answer (5).
 * Sizes follow a real triage run: assistant text of a few hundred bytes, tool results of a
 * few KB (source files, test output), JSON and newlines inside, so escaping costs what it does.
 */
import { newState, type RunState } from '../src/store/state';
import { type Message, type ToolCall, type ToolResult } from '../src/core/conversation';
import type { SaveReason } from '../src/store/save-points';
import { StateEdit } from '../src/store/state-edit';
import { SavePoint } from '../src/store/save-points';
import { Rng } from '../tools/rng';

const WORDS = [
  'parse',
  'row',
  'header',
  'field',
  'value',
  'const',
  'return',
  'throw',
  'if',
  'undefined',
  'length',
  'split',
  'map',
  'error',
  'TypeError',
  'index',
  'line',
  'test',
  'expected',
  'actual',
  'module',
  'exports',
  'function',
  'null',
  'string',
  'section',
  'key',
];

function words(r: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  return out.join(' ');
}

/** About `bytes` of source-like or log-like text, with quotes and newlines. */
export function text(r: Rng, bytes: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < bytes) {
    const l = r.next() < 0.5 ? `  ${r.pick(WORDS)} ${r.pick(WORDS)} = "${words(r, r.int(1, 4))}"; // ${words(r, r.int(2, 6))}` : `${words(r, r.int(4, 12))}`;
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

const TOOLS: Array<{ name: string; changes: boolean }> = [
  { name: 'file_read', changes: false },
  { name: 'file_search', changes: false },
  { name: 'run_tests', changes: false },
  { name: 'code_patch', changes: true },
  { name: 'issue_file', changes: true },
];

export function freshState(runId: string, workspace = '/tmp/bench-ws'): RunState {
  const r = new Rng(7);
  return newState({
    runId,
    task: 'batch-parser',
    config: { workspace, provider: 'recorded', model: 'claude-sonnet-4-5', keys: true, options: {} },
    system: text(r, 1300),
    prompt: text(r, 600),
  });
}

interface Turn {
  assistant: Message & { role: 'assistant' };
  calls: Array<{ call: ToolCall; changes: boolean; result: ToolResult }>;
}

function makeTurn(r: Rng, turn: number): Turn {
  const n = r.pick([1, 1, 2, 2, 2, 3]);
  const calls: Turn['calls'] = [];
  for (let i = 0; i < n; i++) {
    const t = r.pick(TOOLS);
    const id = `toolu_${turn}_${i}_${Math.floor(r.next() * 1e9).toString(36)}`;
    const args =
      t.name === 'code_patch'
        ? JSON.stringify({ path: `src/f${r.int(1, 9)}.js`, patch: text(r, r.int(200, 900)) })
        : JSON.stringify({ path: `src/f${r.int(1, 9)}.js`, query: words(r, 3) });
    calls.push({ call: { id, name: t.name, args }, changes: t.changes, result: { callId: id, content: text(r, r.int(1000, 5000)) } });
  }
  return { assistant: { role: 'assistant', text: text(r, r.int(80, 500)), calls: calls.map((c) => c.call) }, calls };
}

/** Applies one save's worth of the loop's changes; returns the save point, or undefined once the run is done. */
export class LoopPattern {
  private readonly r: Rng;
  private turn: Turn | undefined;
  private callIndex = 0;
  private marked = false;
  private turnNo = 0;
  private started = false;

  constructor(
    seed: number,
    private readonly turns: number,
  ) {
    this.r = new Rng(seed);
  }

  step(e: StateEdit): SaveReason | undefined {
    const s = e.state;
    if (!this.started) {
      this.started = true;
      e.set('restarts', s.restarts + 1);
      return SavePoint.RunStarted;
    }
    if (this.turn === undefined) {
      if (this.turnNo >= this.turns) {
        if (s.phase === 'done') return undefined;
        this.reply(e, { role: 'assistant', text: text(this.r, 400) });
        e.set('answer', 'Filed six issues and patched the parsers.');
        e.set('phase', 'done');
        return SavePoint.PausedOrDone;
      }
      this.turn = makeTurn(this.r, this.turnNo++);
      this.callIndex = 0;
      this.marked = false;
      this.reply(e, this.turn.assistant);
      e.set('phase', 'tools');
      return SavePoint.ReplyArrived;
    }
    const c = this.turn.calls[this.callIndex];
    if (c.changes && !this.marked) {
      this.marked = true;
      e.put('attempts', c.call.id, { callId: c.call.id, tool: c.call.name, startedAt: new Date().toISOString() });
      return SavePoint.AttemptMarked;
    }
    e.put('results', c.call.id, c.result);
    if (c.call.name === 'code_patch') {
      e.put('files', `src/f${this.turnNo % 9}.js`, { sha256: 'ab'.repeat(32), size: 4000, callId: c.call.id, writtenAt: new Date().toISOString() });
    }
    this.callIndex++;
    this.marked = false;
    if (this.callIndex === this.turn.calls.length) {
      e.push({ role: 'tool', results: this.turn.calls.map((x) => x.result) });
      e.set('results', undefined);
      e.set('attempts', undefined);
      e.set('phase', 'model');
      this.turn = undefined;
    } else {
      e.set('phase', 'tools');
    }
    return SavePoint.ResultSaved;
  }

  private reply(e: StateEdit, m: Message & { role: 'assistant' }): void {
    const s = e.state;
    const usage = { inputTokens: 1000 + this.r.int(0, 9000), outputTokens: this.r.int(50, 600), dollars: 0.01 };
    e.set('usage', {
      inputTokens: s.usage.inputTokens + usage.inputTokens,
      outputTokens: s.usage.outputTokens + usage.outputTokens,
      dollars: s.usage.dollars + usage.dollars,
    });
    e.set('turns', s.turns + 1);
    e.push(m);
    e.set('lastReply', { ...(m.text ? { text: m.text } : {}), calls: m.calls ?? [], usage, model: 'claude-sonnet-4-5' });
    e.set('results', undefined);
    e.set('attempts', undefined);
  }
}

/** A state holding about `messages` messages in the loop's pattern (whole turns), as a long run would. */
export function stateWithMessages(runId: string, messages: number, seed: number): RunState {
  const s = freshState(runId);
  const p = new LoopPattern(seed, Number.MAX_SAFE_INTEGER);
  const e = new StateEdit(s);
  while (s.messages.length < messages) p.step(e);
  return s;
}
