/**
 * `--tracker mcp:SERVER` against @modelcontextprotocol/server-memory (from npm): entities as
 * issues, create_entities files, search_nodes lists. Killed right after the filing returns, the
 * rerun finds it by its marker and files nothing new; the same cause in a second run is not
 * refiled (nobody is asked to approve it); a configuration that cannot serve as a tracker is
 * refused before any run is saved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { BadInputError } from '../../src/core/errors';
import { runTriage } from '../../src/triage/job';
import { crashFolderTask } from '../../src/triage/tasks/crash-folder';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { readMarker } from '../../src/tracker/github/marker';
import type { LoopEvent } from '../../src/agent/loop';
import type { CrashHook } from '../../src/store/crash-points';
import { reply, ScriptModel } from '../agent/support';
import { CountingPerson, dieAfter, jsonLines, MEMORY_SERVER, world, writeConfig } from './support';

const TRACKER = {
  file: { tool: 'create_entities', args: { entities: [{ name: '{cause}: {title}', entityType: 'issue', observations: ['{title}', '{body}'] }] } },
  list: { tool: 'search_nodes', args: { query: 'durable-triage' }, items: 'entities', title: 'observations.0', text: 'observations' },
};

/** The memory server with `tracker` as its tracker section (null: none). */
function memoryServer(file: string, tracker: unknown = TRACKER): Record<string, unknown> {
  return { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: file }, ...(tracker === null ? {} : { tracker }) } };
}

interface Entity {
  type: string;
  name: string;
  entityType: string;
  observations: string[];
}

const issuesIn = (file: string): Entity[] => jsonLines<Entity>(file).filter((l) => l.type === 'entity' && l.entityType === 'issue');

async function firstCause(ws: string): Promise<string> {
  return (await crashFolderTask(ws, 'crashes')).groups[0].cause;
}

function runWith(o: {
  w: { ws: string; state: string };
  mcp?: string;
  tracker?: string;
  model: ScriptModel;
  person: CountingPerson;
  crash?: CrashHook;
  fresh?: boolean;
  events?: LoopEvent[];
}) {
  return runTriage({
    stateDir: o.w.state,
    task: 'crash-folder',
    workspace: o.w.ws,
    crashes: 'crashes',
    model: o.model,
    approver: o.person,
    trackerUrl: o.tracker ?? 'mcp:memory',
    ...(o.mcp ? { mcpConfig: o.mcp } : {}),
    store: { sync: false },
    ...(o.fresh ? { fresh: true } : {}),
    ...(o.crash ? { crash: o.crash } : {}),
    ...(o.events ? { onEvent: (e: LoopEvent) => o.events!.push(e) } : {}),
  });
}

test('killed right after the filing returned: the rerun finds it through search_nodes and files nothing new; a second run does not refile the cause', async (t) => {
  const w = world(t);
  const memory = path.join(w.dir, 'memory.jsonl');
  const mcp = writeConfig(w.dir, memoryServer(memory));
  const cause = await firstCause(w.ws);
  const script = [reply(0, [['issue_file', { title: 'It crashes', body: 'Details.', cause }]]), reply(1, [], 'Filed.')];

  const person = new CountingPerson();
  await assert.rejects(runWith({ w, mcp, model: new ScriptModel(script), person, crash: dieAfter('issue_file') }), SimulatedCrash);
  assert.equal(person.approvals.length, 1, 'a person approved the filing');
  const filed = issuesIn(memory);
  assert.equal(filed.length, 1, 'filed before the crash');
  assert.equal(filed[0].name, `${cause}: It crashes`);
  const marker = readMarker(filed[0].observations[1]);
  assert.ok(marker, filed[0].observations.join(' | '));
  assert.equal(marker.body, 'Details.');
  assert.equal(marker.marker.cause, cause);

  const events: LoopEvent[] = [];
  const again = new CountingPerson();
  const done = await runWith({ w, mcp, model: new ScriptModel(script), person: again, events });
  assert.equal(done.result.phase, 'done');
  assert.equal(done.result.restarts, 1);
  assert.equal(issuesIn(memory).length, 1, 'never filed twice');
  assert.equal(marker.marker.key, idempotencyKey(done.runId, 'c0_0'), "the marker holds the call's key");
  assert.equal(marker.marker.runId, done.runId);
  assert.deepEqual(
    events.filter((e) => e.type === 'ladder').map((e) => e.type === 'ladder' && [e.step, e.outcome]),
    [['lookup', 'done']],
  );
  assert.equal(again.questions.length + again.approvals.length, 0, 'nobody was asked');
  assert.deepEqual(
    done.issues.map((i) => [i.number, i.title, i.cause]),
    [[1, 'It crashes', cause]],
  );

  const second = new CountingPerson();
  const model = new ScriptModel([reply(0, [['issue_file', { title: 'Same crash again', body: 'Other words.', cause }]]), reply(1, [], 'ok')]);
  const next = await runWith({ w, mcp, model, person: second, fresh: true });
  assert.notEqual(next.runId, done.runId);
  assert.equal(next.result.phase, 'done');
  assert.equal(issuesIn(memory).length, 1, 'the same cause is not filed again by another run');
  assert.equal(second.approvals.length, 0, 'nobody was asked to approve it');
  const result = model.lastRequest!.messages.flatMap((m) => (m.role === 'tool' ? m.results : []))[0];
  assert.match(result.content, new RegExp(`already filed as issue #1: It crashes \\(cause ${cause}, by run ${done.runId}\\)`));
  const offered = model.lastRequest!.tools.map((x) => x.name);
  assert.ok(
    !offered.includes('memory__create_entities'),
    `the tracker's filing tool is not offered to the model (it would file around the guard): ${offered.join(', ')}`,
  );
  assert.ok(offered.includes('memory__search_nodes') && offered.includes('issue_file'), offered.join(', '));
});

test('a tracker the MCP configuration cannot serve is refused before any run is saved', async (t) => {
  const w = world(t);
  const memory = path.join(w.dir, 'memory.jsonl');
  const model = new ScriptModel([reply(0, [], 'nothing')]);
  const person = new CountingPerson();
  const refused = async (o: { mcp?: string; tracker?: string }, message: RegExp): Promise<void> => {
    await assert.rejects(runWith({ w, model, person, ...o }), (e: unknown) => e instanceof BadInputError && message.test(e.message));
    const runs = fs.existsSync(path.join(w.state, 'runs')) ? fs.readdirSync(path.join(w.state, 'runs')) : [];
    assert.deepEqual(runs, [], 'no run saved');
  };
  await refused({}, /^The tracker mcp:memory is a server of an MCP configuration: give --mcp FILE/);
  await refused(
    { mcp: writeConfig(w.dir, memoryServer(memory), 'a.json'), tracker: 'mcp:jira' },
    /files into mcp:jira, which is not a server of its MCP configuration/,
  );
  await refused({ mcp: writeConfig(w.dir, memoryServer(memory, null), 'b.json') }, /needs a "tracker" section in server "memory"/);
  await refused(
    { mcp: writeConfig(w.dir, memoryServer(memory, { ...TRACKER, list: { ...TRACKER.list, tool: 'add_observations' } }), 'c.json') },
    /"tracker.list" calls "add_observations", which is not read-only/,
  );
  await refused(
    { mcp: writeConfig(w.dir, memoryServer(memory, { ...TRACKER, file: { ...TRACKER.file, tool: 'file_issue' } }), 'd.json') },
    /"tracker.file" calls "file_issue", which the server does not list/,
  );
  await refused({ mcp: writeConfig(w.dir, memoryServer(memory, { file: TRACKER.file }), 'e.json') }, /is not valid \(server "memory"\).*tracker.*list/);
  assert.deepEqual(issuesIn(memory), [], 'nothing filed');
});

test('a filing the tool answers with an error: the model reads that nothing was filed, and the run goes on', async (t) => {
  const w = world(t);
  const memory = path.join(w.dir, 'memory.jsonl');
  // create_entities needs an entityType: the server refuses these arguments with an error result.
  const broken = { ...TRACKER, file: { tool: 'create_entities', args: { entities: [{ name: '{title}', observations: ['{body}'] }] } } };
  const mcp = writeConfig(w.dir, memoryServer(memory, broken));
  const cause = await firstCause(w.ws);
  const model = new ScriptModel([reply(0, [['issue_file', { title: 'It crashes', body: 'Details.', cause }]]), reply(1, [], 'Could not file.')]);
  const done = await runWith({ w, mcp, model, person: new CountingPerson() });
  assert.equal(done.result.phase, 'done');
  const result = model.lastRequest!.messages.flatMap((m) => (m.role === 'tool' ? m.results : []))[0];
  assert.equal(result.isError, true);
  assert.match(result.content, /^issue_file: The tracker tool memory\/create_entities answered with an error: .*entityType\. Nothing was filed\.$/s);
  assert.deepEqual(issuesIn(memory), []);
});
