/** What the MCP client tests share: the servers they run, a workspace, a run with a scripted model, a person who counts questions. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { runTriage, type TriageOutcome } from '../../src/triage/job';
import type { ApprovalAnswer, ApprovalRequest, Approver, LadderAnswer, LadderQuestion } from '../../src/agent/approver';
import type { LoopEvent } from '../../src/agent/loop';
import type { CrashHook } from '../../src/store/crash-points';
import type { ModelReply } from '../../src/core/conversation';
import { TOOL_ACTED } from '../../src/store/crash-points';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { ScriptModel } from '../agent/support';
import { tempDir } from '../support/temp-dir';

const ROOT = path.resolve(__dirname, '../../..');
/** @modelcontextprotocol/server-memory, from npm. */
export const MEMORY_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
/** Our stand-in (recorder-server.ts). */
export const RECORDER_SERVER = path.join(__dirname, 'recorder-server.js');

/** A workspace with the crash reports of the node fixture, and a state folder. */
export function world(t: TestContext): { ws: string; state: string; dir: string } {
  const dir = tempDir(t, 'triage-mcp-');
  const ws = path.join(dir, 'ws');
  fs.cpSync(path.join(ROOT, 'test/fixtures/repos/node/crashes'), path.join(ws, 'crashes'), { recursive: true });
  return { ws, state: path.join(dir, 'state'), dir };
}

export function writeConfig(dir: string, servers: Record<string, unknown>, name = 'mcp.json'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

export class CountingPerson implements Approver {
  approvals: ApprovalRequest[] = [];
  questions: LadderQuestion[] = [];
  constructor(private readonly ladder: LadderAnswer = { answer: 'done', result: 'a person checked: it happened' }) {}
  async approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.approvals.push(req);
    return 'approve';
  }
  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    this.questions.push(q);
    return this.ladder;
  }
}

/** A crash hook that dies (SimulatedCrash) right after the first call of `tool` returns, before its result is saved. */
export function dieAfter(tool: string): CrashHook {
  let done = false;
  return (point, detail) => {
    if (!done && point === TOOL_ACTED && detail?.tool === tool) {
      done = true;
      throw new SimulatedCrash(point);
    }
  };
}

export interface RunOpts {
  w: { ws: string; state: string };
  mcp: string;
  script: ModelReply[];
  person?: Approver;
  crash?: CrashHook;
  events?: LoopEvent[];
  approvalTools?: string[];
  model?: ScriptModel;
}

export function run(o: RunOpts): Promise<TriageOutcome> {
  return runTriage({
    stateDir: o.w.state,
    task: 'crash-folder',
    workspace: o.w.ws,
    crashes: 'crashes',
    model: o.model ?? new ScriptModel(o.script),
    approver: o.person ?? new CountingPerson(),
    mcpConfig: o.mcp,
    store: { sync: false },
    ...(o.crash ? { crash: o.crash } : {}),
    ...(o.events ? { onEvent: (e: LoopEvent) => o.events!.push(e) } : {}),
    ...(o.approvalTools ? { approvalTools: o.approvalTools } : {}),
  });
}

/** The lines of a JSON-lines file. */
export function jsonLines<T>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
