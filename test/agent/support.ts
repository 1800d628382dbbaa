/**
 * A scripted world for loop tests: a model that replays replies, a service that honours
 * idempotency keys and counts real side effects, tools of every kind, and a person.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ModelProvider, ModelRequest } from '../../src/model/provider';
import { PriceTable } from '../../src/model/prices';
import type { RunState } from '../../src/store/state';
import type { ModelReply } from '../../src/core/conversation';
import { newState } from '../../src/store/state';
import { z } from 'zod';
import { keyedFor, type Tool, type ToolOutput } from '../../src/agent/tool';
import type { Approver, ApprovalAnswer, LadderAnswer, LadderQuestion, ApprovalRequest } from '../../src/agent/approver';

export function tmp(prefix = 'triage-agent-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function reply(turn: number, calls: [string, unknown][], text?: string): ModelReply {
  const r: ModelReply = {
    calls: calls.map(([name, args], i) => ({ id: `c${turn}_${i}`, name, args: typeof args === 'string' ? args : JSON.stringify(args) })),
    usage: { inputTokens: 1000, outputTokens: 100, dollars: 0.01 },
    model: 'scripted',
  };
  if (text !== undefined) r.text = text;
  return r;
}

export class ScriptModel implements ModelProvider {
  readonly provider = 'scripted';
  readonly model = 'scripted';
  readonly prices = new PriceTable();
  requests: number[] = [];
  lastRequest?: ModelRequest;
  constructor(private readonly script: ModelReply[]) {}
  async complete(req: ModelRequest): Promise<ModelReply> {
    this.lastRequest = req;
    this.requests[req.turn] = (this.requests[req.turn] ?? 0) + 1;
    const r = this.script[req.turn];
    if (!r) throw new Error(`no scripted reply for turn ${req.turn}`);
    return structuredClone(r);
  }
  get total(): number {
    return this.requests.reduce((a, b) => a + (b ?? 0), 0);
  }
}

/** A service that creates records; with a key it replays instead of creating again. */
export class Service {
  records: { id: number; note: string; key?: string }[] = [];
  /** Every request, with the key it carried (replays included). */
  requests: { note: string; key?: string }[] = [];
  effects = 0;
  create(note: string, key?: string): number {
    this.requests.push({ note, ...(key ? { key } : {}) });
    const seen = key ? this.records.find((r) => r.key === key) : undefined;
    if (seen) return seen.id;
    this.effects++;
    const id = this.records.length + 1;
    this.records.push({ id, note, ...(key ? { key } : {}) });
    return id;
  }
}

/** The arguments of the record-creating tools. */
export const NoteArgs = z.object({ note: z.string() });
type Note = z.infer<typeof NoteArgs>;

export function keyedTool(svc: Service, name = 'keyed', opts: Partial<Tool<Note>> = {}): Tool<Note> {
  return {
    name,
    description: 'creates a record, keyed',
    args: NoteArgs,
    keyed: keyedFor(24 * 3600_000),
    async run(args, ctx): Promise<ToolOutput> {
      return { content: `created #${svc.create(String(args.note), ctx.key)}` };
    },
    ...opts,
  };
}

export function lookupTool(svc: Service, name = 'looked'): Tool<Note> {
  return {
    name,
    description: 'creates a record, no key, with a lookup',
    args: NoteArgs,
    async run(args): Promise<ToolOutput> {
      return { content: `created #${svc.create(String(args.note))}` };
    },
    async lookup(args) {
      const r = svc.records.find((x) => x.note === args.note);
      return r ? { status: 'done', output: { content: `created #${r.id}` } } : { status: 'not-done' };
    },
  };
}

export function bareTool(svc: Service, name = 'bare'): Tool<Note> {
  return {
    name,
    description: 'creates a record, no key, no lookup',
    args: NoteArgs,
    async run(args): Promise<ToolOutput> {
      return { content: `created #${svc.create(String(args.note))}` };
    },
  };
}

export function readTool(name = 'read'): Tool<{ path: string }> & { runs: number } {
  const t = {
    name,
    description: 'reads',
    args: z.object({ path: z.string() }),
    readOnly: true,
    runs: 0,
    async run(args: { path: string }): Promise<ToolOutput> {
      t.runs++;
      return { content: `contents of ${String(args.path)}` };
    },
  };
  return t;
}

/** Approves (or as told); answers the ladder correctly by looking at the service. Counts every question. */
export class Person implements Approver {
  approvals = 0;
  questions = 0;
  /** The tool of each ladder question, in order. */
  asked: string[] = [];
  answer: ApprovalAnswer = 'approve';
  lastApproval?: ApprovalRequest;
  lastQuestion?: LadderQuestion;
  constructor(private readonly svc?: Service) {}
  async approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.approvals++;
    this.lastApproval = req;
    return this.answer;
  }
  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    this.questions++;
    this.asked.push(q.tool);
    this.lastQuestion = q;
    const note = (JSON.parse(q.args) as { note: string }).note;
    const r = this.svc?.records.find((x) => x.note === note);
    return r ? { answer: 'done', result: `created #${r.id} (confirmed by a person)` } : { answer: 'rerun' };
  }
}

/** A keyed tool that runs only after a person says yes. */
export function approvalTool(svc: Service, name = 'file'): Tool<Note> {
  return keyedTool(svc, name, { needsApproval: true, describe: (a) => ({ title: `File ${String(a.note)}`, detail: 'body' }) });
}

export function freshState(runId: string, workspace: string, keys = true): RunState {
  return newState({ runId, task: 'test', config: { workspace, provider: 'scripted', model: 'scripted', keys }, system: 'sys', prompt: 'go' });
}
