/**
 * MCP servers that misbehave: one that will not start, one that hangs (the call's timeout), one
 * whose result is not what it declared, one whose annotations lie, and one whose tools changed
 * between the crash and the resume. Each is a clear error (or an error result), and the run saved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpServerError, McpToolsChangedError } from '../../src/core/errors';
import { exitCodeOf, EXIT } from '../../src/cli/exitcodes';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { readRun } from '../../src/store/files/checkpoint';
import { latestRun } from '../../src/triage/run-admin';
import { openStateFolder } from '../../src/store/open-store';
import { SavePoint } from '../../src/store/save-points';
import type { LoopEvent } from '../../src/agent/loop';
import { reply } from '../agent/support';
import { CountingPerson, dieAfter, RECORDER_SERVER, run, world, writeConfig } from './support';

function recorder(dir: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}): Record<string, unknown> {
  return { rec: { command: process.execPath, args: [RECORDER_SERVER], env: { RECORD_FILE: path.join(dir, 'calls.jsonl'), ...env }, ...extra } };
}

test('a server that will not start: an McpServerError naming its command, and no run is created', async (t) => {
  const w = world(t);
  const missing = path.join(w.dir, 'no-such-server');
  const mcp = writeConfig(w.dir, { gone: { command: missing, args: ['--flag'] } });
  const e = await run({ w, mcp, script: [reply(0, [], 'ok')] }).then(
    () => assert.fail('it started'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof McpServerError, String(e));
  assert.equal(e.kind, 'start');
  assert.ok(e.message.includes(`${missing} --flag`), e.message);
  assert.equal(exitCodeOf(e), EXIT.mcp);
  assert.equal(await latestRun(openStateFolder(w.state), { task: 'crash-folder' }), undefined);
});

test('a server that hangs: the call times out, the run stops with its marker saved, and a resume asks the ladder', async (t) => {
  const w = world(t);
  const mcp = writeConfig(w.dir, recorder(w.dir, { timeoutMs: 500 }));
  const script = [reply(0, [['rec__hang', { note: 'h' }]]), reply(1, [], 'ok')];
  const e = await run({ w, mcp, script }).then(
    () => assert.fail('it finished'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof McpServerError && e.kind === 'timeout', String(e));
  assert.match(e.message, /did not answer within 500 ms while calling hang/);
  const runId = (await latestRun(openStateFolder(w.state), { task: 'crash-folder' }))!.runId;
  const s = await readRun(w.state, runId);
  assert.equal(s.phase, 'tools');
  assert.ok(s.attempts?.c0_0, 'the marker is saved');
  assert.equal(s.results?.c0_0, undefined, 'no result was made up');

  const person = new CountingPerson();
  const done = await run({ w, mcp, script, person });
  assert.deepEqual(
    person.questions.map((q) => q.tool),
    ['rec__hang'],
    'it may have acted: a person is asked (no lookup, no key kept)',
  );
  assert.equal(done.result.phase, 'done');
});

test('a result that is not what the tool declared is the call’s error result; the run goes on', async (t) => {
  const w = world(t);
  const mcp = writeConfig(w.dir, recorder(w.dir));
  const done = await run({ w, mcp, script: [reply(0, [['rec__bad_output', {}]]), reply(1, [], 'ok')] });
  assert.equal(done.result.phase, 'done');
  const result = done.result.messages.flatMap((m) => (m.role === 'tool' ? m.results : []))[0];
  assert.equal(result.isError, true);
  assert.match(result.content, /output schema/);
});

test('annotations that lie: a "read-only" tool the configuration calls mutating gets an attempt marker', async (t) => {
  for (const mutating of [false, true]) {
    const w = world(t);
    const mcp = writeConfig(w.dir, recorder(w.dir, mutating ? { mutating: ['lying_read'] } : {}));
    const events: LoopEvent[] = [];
    await run({ w, mcp, events, script: [reply(0, [['rec__lying_read', { note: 'x' }]]), reply(1, [], 'ok')] });
    const marked = events.filter((e) => e.type === 'saved' && e.point === SavePoint.AttemptMarked).length;
    assert.equal(marked, mutating ? 1 : 0, `mutating override ${mutating}`);
  }
});

test('a server whose tools changed since the crash stops the resume with McpToolsChangedError; put back, the run goes on', async (t) => {
  const w = world(t);
  const script = [reply(0, [['rec__create_record', { note: 'n' }]]), reply(1, [], 'ok')];
  const mcp = writeConfig(w.dir, recorder(w.dir));
  await assert.rejects(run({ w, mcp, script, crash: dieAfter('rec__create_record') }), SimulatedCrash);
  const runId = (await latestRun(openStateFolder(w.state), { task: 'crash-folder' }))!.runId;
  const before = fs.readFileSync(mcp, 'utf8');

  writeConfig(w.dir, recorder(w.dir, {}, { VARIANT: 'changed' }));
  const e = await run({ w, mcp, script }).then(
    () => assert.fail('it resumed'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof McpToolsChangedError, String(e));
  assert.match(e.message, /create_record takes other arguments/);
  assert.equal(exitCodeOf(e), EXIT.mcp);
  assert.equal((await readRun(w.state, runId)).restarts, 0, 'nothing ran, not even the restart count');

  writeConfig(w.dir, {});
  await assert.rejects(run({ w, mcp, script }), /no longer has/);

  fs.writeFileSync(mcp, before);
  const done = await run({ w, mcp, script });
  assert.equal(done.result.phase, 'done');
});
