import { toolSpec } from '../../src/agent/tool-args';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { startTracker, type TrackerService } from '../../src/tracker/service';
import { TrackerClient } from '../../src/tracker/client';
import { issueFileTool } from '../../src/tools/issue-file';
import { issueLookupTool } from '../../src/tools/issue-lookup';
import { triageTools, TOOL_NAMES } from '../../src/tools';
import { toolSet } from '../../src/agent/tool';
import { context, callTool } from './support';

const WS = os.tmpdir(); // the issue tools do not touch the workspace
const ISSUE = { title: 'done after delete crashes', body: 'Seen in crashes/done-after-delete/a.txt.', cause: 'done-after-delete' };

async function tracker(t: TestContext, o: { retentionMs?: number } = {}): Promise<TrackerService> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-issue-tools-'));
  const svc = await startTracker({ dir, port: 0, host: '127.0.0.1', ...o });
  t.after(async () => {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return svc;
}

test('issue_file sends the key in the Idempotency-Key header, the run and workspace in X-Triage-*, never in the body', async (t) => {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET') return res.end(JSON.stringify({ issues: [] }));
      res.statusCode = 201;
      res.end(JSON.stringify({ issue: { number: 7, ...JSON.parse(body), createdAt: new Date(0).toISOString() }, retentionMs: 3_600_000 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const client = new TrackerClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const tool = issueFileTool({ tracker: client, keys: true });
  const out = await tool.run(ISSUE, context(WS, { runId: 'run-42', callId: 'toolu_1', key: '0123456789abcdef0123456789abcdef' }));
  assert.deepEqual(out, { content: `filed issue #7: ${ISSUE.title}` });
  const postReq = seen.find((r) => r.method === 'POST')!;
  assert.equal(postReq.headers['idempotency-key'], '0123456789abcdef0123456789abcdef');
  assert.equal(postReq.headers['x-triage-run'], 'run-42');
  assert.equal(decodeURIComponent(String(postReq.headers['x-triage-workspace'])), WS);
  assert.deepEqual(JSON.parse(postReq.body), ISSUE, 'the body is what the model wrote, nothing more');
  assert.ok(!postReq.body.includes('0123456789abcdef'));
  assert.equal(seen[0].method, 'GET', 'the refile guard searched first');
  assert.match(seen[0].url, /cause=done-after-delete/);
  assert.equal(new URL(seen[0].url, 'http://x').searchParams.get('workspace'), WS, 'the guard looks across runs of this workspace');
  assert.equal(await tool.keyed?.retention(new AbortController().signal), 3_600_000, "keyed with the tracker's declared retention");
});

test('with keys off: not keyed, no lookup, and no key sent even if one is offered', async (t) => {
  const svc = await tracker(t);
  const tool = issueFileTool({ tracker: new TrackerClient(svc.url), keys: false });
  assert.equal(tool.keyed, undefined);
  assert.equal(tool.lookup, undefined);
  assert.equal(tool.needsApproval, true);
  await tool.run(ISSUE, context(WS, { key: 'should-not-travel' }));
  assert.equal((await svc.store.list())[0].key, undefined);
});

test('the refile guard: a cause already filed from this workspace, by this run or another, is refused with its number', async (t) => {
  const svc = await tracker(t);
  const client = new TrackerClient(svc.url);
  const tool = issueFileTool({ tracker: client, keys: true });
  assert.equal((await tool.run(ISSUE, context(WS, { runId: 'r1', callId: 'c1', key: 'key-1' }))).content, `filed issue #1: ${ISSUE.title}`);
  const again = await tool.run({ ...ISSUE, title: 'reworded' }, context(WS, { runId: 'r1', callId: 'c2', key: 'key-2' }));
  assert.deepEqual(again, {
    content: 'issue #1 is already filed for cause done-after-delete in this workspace by this run; not filing it again',
    isError: true,
  });
  const laterRun = await tool.run(ISSUE, context(WS, { runId: 'r2', callId: 'c1', key: 'key-3' }));
  assert.deepEqual(laterRun, {
    content: 'issue #1 is already filed for cause done-after-delete in this workspace by run r1; not filing it again',
    isError: true,
  });
  const rerun = await tool.run(ISSUE, context(WS, { runId: 'r1', callId: 'c1', key: 'key-1' }));
  assert.equal(rerun.content, `filed issue #1: ${ISSUE.title}`, 'a rerun of the filing call (same key) still gets the original answer');
  const otherWs = await tool.run(ISSUE, context(`${WS}-other`, { runId: 'r3', callId: 'c1', key: 'key-4' }));
  assert.equal(otherWs.content, `filed issue #2: ${ISSUE.title}`, 'another workspace may file the same cause');
  assert.deepEqual(
    (await svc.store.list()).map((i) => [i.number, i.runId, i.workspace]),
    [
      [1, 'r1', WS],
      [2, 'r3', `${WS}-other`],
    ],
  );
});

test('the same call sent again (same key) gets the same text and files nothing new', async (t) => {
  const svc = await tracker(t);
  const tool = issueFileTool({ tracker: new TrackerClient(svc.url), keys: true });
  const ctx = () => context(WS, { runId: 'r1', callId: 'c1', key: 'key-1' });
  const a = await tool.run(ISSUE, ctx());
  const b = await tool.run(ISSUE, ctx());
  assert.deepEqual(a, b);
  assert.equal((await svc.store.list()).length, 1);
});

test('issue_file lookup: found by key -> done with the filing text; unknown key -> not-done; tracker down -> throws', async (t) => {
  const svc = await tracker(t);
  const tool = issueFileTool({ tracker: new TrackerClient(svc.url), keys: true });
  const filed = await tool.run(ISSUE, context(WS, { key: 'key-1' }));
  assert.deepEqual(await tool.lookup!(ISSUE, context(WS, { key: 'key-1' })), { status: 'done', output: filed });
  assert.deepEqual(await tool.lookup!(ISSUE, context(WS, { key: 'key-never-sent' })), { status: 'not-done' });
  await assert.rejects(tool.lookup!(ISSUE, context(WS)), /no idempotency key/);
  await svc.close();
  await assert.rejects(tool.lookup!(ISSUE, context(WS, { key: 'key-1' })), /is not answering/);
});

test('issue_file: bad arguments and a dead tracker are error results', async (t) => {
  const svc = await tracker(t);
  const tool = issueFileTool({ tracker: new TrackerClient(svc.url), keys: true });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ title: 'x', body: 'y' }, /"cause" is required/],
    [{ ...ISSUE, title: 3 }, /"title" should be a string/],
    [{ ...ISSUE, body: '' }, /"body" is empty/],
    [{ ...ISSUE, key: 'smuggled' }, /no argument "key"/],
    [{ ...ISSUE, title: 'x'.repeat(301) }, /at most 300/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(tool, args, context(WS, { key: 'k' }));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
  assert.equal((await svc.store.list()).length, 0);
  await svc.close();
  const down = await tool.run(ISSUE, context(WS, { key: 'k' }));
  assert.equal(down.isError, true);
  assert.match(down.content, /is not answering.*check with issue_lookup/);
});

test('issue_file describe(): title and body with the cause', () => {
  const tool = issueFileTool({ tracker: new TrackerClient('http://127.0.0.1:9'), keys: true });
  assert.deepEqual(tool.describe!(ISSUE), { title: `File issue: ${ISSUE.title}`, detail: `${ISSUE.body}\n\ncause: done-after-delete` });
});

test('issue_lookup shows one issue by number, or the issues of a cause', async (t) => {
  const svc = await tracker(t);
  const client = new TrackerClient(svc.url);
  await client.fileIssue(ISSUE, { runId: 'r1' });
  await client.fileIssue(ISSUE, { runId: 'r2' });
  const tool = issueLookupTool({ tracker: client });
  assert.equal(tool.readOnly, true);
  const one = await tool.run({ number: 1 }, context(WS, { runId: 'r1' }));
  assert.equal(one.content, `#1 [done-after-delete] ${ISSUE.title} (filed by this run)\n\n${ISSUE.body}`);
  const byCause = await tool.run({ cause: 'done-after-delete' }, context(WS, { runId: 'r1' }));
  assert.equal(byCause.content, `#1 [done-after-delete] ${ISSUE.title} (filed by this run)\n#2 [done-after-delete] ${ISSUE.title} (filed by run r2)`);
  assert.equal((await tool.run({ number: 9 }, context(WS))).content, 'no issue #9');
  assert.equal((await tool.run({ cause: 'none' }, context(WS))).content, 'no issues with cause none');
  for (const [args, re] of [
    [{}, /give an issue "number" or a "cause"/],
    [{ number: '1' }, /argument "number" should be a number, found a string/],
    [{ number: 1.5 }, /argument "number" should be a whole number/],
    [{ number: 0 }, /argument "number" should be more than 0/],
    [{ cause: 7 }, /argument "cause" should be a string/],
  ] as [Record<string, unknown>, RegExp][]) {
    const r = await callTool(tool, args, context(WS));
    assert.equal(r.isError, true);
    assert.match(r.content, re);
  }
});

test('triageTools: the fixed names, and keys on/off decides keyed and lookup of issue_file', () => {
  const client = new TrackerClient('http://127.0.0.1:9');
  const on = toolSet(triageTools({ tracker: client, keys: true }));
  assert.deepEqual([...on.keys()], [...TOOL_NAMES]);
  assert.ok(on.get('issue_file')!.keyed);
  assert.equal(typeof on.get('issue_file')!.lookup, 'function');
  const off = toolSet(triageTools({ tracker: client, keys: false }));
  assert.equal(off.get('issue_file')!.keyed, undefined);
  assert.equal(off.get('issue_file')!.lookup, undefined);
  for (const name of ['list_files', 'read_file', 'search_files', 'run_tests', 'issue_lookup']) assert.equal(on.get(name)!.readOnly, true, name);
  for (const t of on.values()) assert.equal(toolSpec(t).schema.type, 'object');
});
