// `triage mcp` driven by the official MCP SDK's client over stdio, as another agent would:
// its tools and their hints, a filing keyed twice (filed once, checked in the tracker's store),
// and a run started, paused for an approval, answered, and read back (status, transcript).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './support';
import { TrackerStore } from '../../src/tracker/store';
import { trackerDir } from '../../src/tracker/embedded';
import { AGENT_TOOLS } from '../../src/triage/agent-tools';
import { IDEMPOTENCY_META_KEY } from '../../src/triage/file-once';

let dir: string;
let client: Client;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-mcp-'));
  client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--state', path.join(dir, 'state')],
      env: { ...env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
      stderr: 'ignore',
    }),
  );
});

after(async () => {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
}

function data<T>(r: CallToolResult): T {
  assert.ok(!r.isError, `the call failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

const storeIssues = (): Promise<{ number: number; title: string; key?: string }[]> => TrackerStore.readOnly(trackerDir(path.join(dir, 'state')));

test('lists the five tools with the hints the operations state', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(AGENT_TOOLS).sort());
  for (const t of tools) {
    const spec = AGENT_TOOLS[t.name as keyof typeof AGENT_TOOLS];
    assert.equal(t.annotations?.readOnlyHint, spec.annotations.readOnlyHint, t.name);
    assert.equal(t.annotations?.destructiveHint, spec.annotations.destructiveHint, t.name);
    assert.equal(t.annotations?.idempotentHint, spec.annotations.idempotentHint, t.name);
  }
  assert.equal(tools.find((t) => t.name === 'triage_status')?.annotations?.readOnlyHint, true);
  assert.equal(tools.find((t) => t.name === 'triage_transcript')?.annotations?.readOnlyHint, true);
});

test("the same _meta key twice files once: the second call returns the first filing's issue", async () => {
  const args = { title: 'checkout crashes on an unknown coupon', body: 'TypeError in discountFor', cause: 'unknown-coupon' };
  type Filed = { issue: { number: number }; key: string; replayed: boolean; derivedKey: boolean };
  const first = data<Filed>(await call('triage_file_issue', args, { [IDEMPOTENCY_META_KEY]: 'agent-42-call-7' }));
  const second = data<Filed>(await call('triage_file_issue', args, { [IDEMPOTENCY_META_KEY]: 'agent-42-call-7' }));
  assert.equal(first.replayed, false);
  assert.equal(second.replayed, true);
  assert.equal(second.issue.number, first.issue.number);
  assert.equal(first.derivedKey, false);
  const kept = (await storeIssues()).filter((i) => i.key === first.key);
  assert.equal(kept.length, 1, 'the tracker holds the issue once');
  // No key: one derived from the arguments, so the same arguments again file nothing new either.
  const other = { ...args, title: 'another title', cause: 'other-cause' };
  const d1 = data<Filed>(await call('triage_file_issue', other));
  const d2 = data<Filed>(await call('triage_file_issue', other));
  assert.equal(d1.derivedKey, true);
  assert.equal(d2.issue.number, d1.issue.number);
  assert.notEqual(d1.issue.number, first.issue.number);
  assert.equal((await storeIssues()).length, 2, JSON.stringify(await storeIssues()));
});

test('a key that is not a string is refused and files nothing', async () => {
  const before = (await storeIssues()).length;
  const r = await call('triage_file_issue', { title: 't', body: 'b', cause: 'c' }, { [IDEMPOTENCY_META_KEY]: 7 });
  assert.equal(r.isError, true);
  assert.equal((await storeIssues()).length, before);
});

test("bad input is the tool's error result naming what is wrong, and starts nothing", async () => {
  const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;
  const unknown = await call('triage_start', { task: 'no-such-task' });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /no-such-task/);
  const none = await call('triage_start', {});
  assert.equal(none.isError, true);
  assert.match(text(none), /needs a task/);
  const noRun = await call('triage_transcript', { run: 'no-such-run' });
  assert.equal(noRun.isError, true);
  assert.deepEqual(data<{ runs: unknown[] }>(await call('triage_status', {})).runs, []);
});

type Run = {
  runId: string;
  phase?: string;
  pending: { kind: string; callId: string; tool: string }[];
  live?: { here: string; issues?: { number: number }[]; error?: string };
};

/** Asks for the run's status until `done` says it is there (no clock: each answer is observed). */
async function statusUntil(runId: string, done: (r: Run) => boolean): Promise<Run> {
  for (;;) {
    const [r] = data<{ runs: Run[] }>(await call('triage_status', { run: runId })).runs;
    assert.equal(r.live?.error, undefined, 'the run did not fail');
    if (done(r)) return r;
    await new Promise((res) => setImmediate(res));
  }
}

test('a run started over MCP pauses for its approval, is answered, finishes; status and transcript show it', async () => {
  const { runId } = data<{ runId: string }>(await call('triage_start', { task: 'cart-unknown-coupon' }));
  const paused = await statusUntil(runId, (r) => r.live?.here === 'stopped');
  assert.equal(paused.phase, 'paused');
  const q = paused.pending.find((p) => p.kind === 'approval' && p.tool === 'issue_file');
  assert.ok(q, 'it waits on the approval of issue_file');
  const wrong = await call('triage_answer', { run: runId, call: 'no-such-call', answer: 'approve' });
  assert.equal(wrong.isError, true);
  data(await call('triage_answer', { run: runId, call: q.callId, answer: 'approve' }));
  const twice = await call('triage_answer', { run: runId, call: q.callId, answer: 'deny' });
  assert.equal(twice.isError, true, 'the first answer stands');
  const done = await statusUntil(runId, (r) => r.live?.here === 'stopped' && r.phase !== 'paused');
  assert.equal(done.phase, 'done');
  assert.equal(done.live?.issues?.length, 1);
  const t = await call('triage_transcript', { run: runId });
  const text = (t.content[0] as { text: string }).text;
  assert.match(text, /File issue/);
  assert.equal((await storeIssues()).length, 3, 'the run filed its issue into the same embedded tracker');
});
