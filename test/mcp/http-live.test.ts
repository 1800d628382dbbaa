/**
 * The MCP client over Streamable HTTP, live: @modelcontextprotocol/server-everything (from npm,
 * `node dist/index.js streamableHttp`, its port from PORT) answers a call made through a run;
 * our recorder served over HTTP shows the key arriving in `_meta`, the same across a restart and
 * never in the arguments; and a server that goes away mid-run stops the run with a clear error,
 * the call's attempt marker saved, so the resume asks the lookup and the call happens once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { McpServerError } from '../../src/core/errors';
import { exitCodeOf, EXIT } from '../../src/cli/exitcodes';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { IDEMPOTENCY_META_KEY } from '../../src/mcp/names';
import { readRun } from '../../src/store/files/checkpoint';
import { latestRun } from '../../src/triage/run-admin';
import { openStateFolder } from '../../src/store/open-store';
import type { ModelRequest } from '../../src/model/provider';
import type { ModelReply } from '../../src/core/conversation';
import type { LoopEvent } from '../../src/agent/loop';
import { reply, ScriptModel } from '../agent/support';
import { CountingPerson, dieAfter, jsonLines, RECORDER_SERVER, run, world, writeConfig } from './support';
import { freePort, startHttpServer } from './http-server';

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

interface Line {
  tool: string;
  args: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

test('server-everything over Streamable HTTP: a run calls its echo tool and reads the answer', async (t) => {
  const w = world(t);
  const server = await startHttpServer(t, [EVERYTHING, 'streamableHttp'], { PORT: String(await freePort()) });
  const mcp = writeConfig(w.dir, { everything: { type: 'http', url: server.url } });
  const model = new ScriptModel([reply(0, [['everything__echo', { message: 'over http' }]]), reply(1, [], 'ok')]);
  const done = await run({ w, mcp, script: [], model });
  assert.equal(done.result.phase, 'done');
  const results = model.lastRequest!.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
  assert.deepEqual(
    results.map((r) => [r.content, r.isError ?? false]),
    [['Echo: over http', false]],
  );
  const saved = await readRun(w.state, done.runId);
  const echo = saved.config.mcp?.[0].tools.find((x) => x.name === 'echo');
  assert.deepEqual([echo?.as, echo?.readOnly], ['everything__echo', true], 'its annotations, saved with the run');
});

test('our recorder over Streamable HTTP: the key arrives in _meta, the same after a restart, never in the arguments', async (t) => {
  const w = world(t);
  const rec = path.join(w.dir, 'calls.jsonl');
  const server = await startHttpServer(t, [RECORDER_SERVER], { PORT: '0', RECORD_FILE: rec });
  const mcp = writeConfig(w.dir, { rec: { type: 'http', url: server.url, keyRetentionMs: 3_600_000 } });
  const script = [reply(0, [['rec__create_record', { note: 'n1' }]]), reply(1, [], 'ok')];
  await assert.rejects(run({ w, mcp, script, crash: dieAfter('rec__create_record') }), SimulatedCrash);
  const done = await run({ w, mcp, script });
  assert.equal(done.result.phase, 'done');
  const calls = jsonLines<Line>(rec).filter((l) => l.tool === 'create_record');
  assert.equal(calls.length, 2, 'sent before the crash, and again by the ladder with the same key');
  for (const c of calls) {
    assert.equal(c.meta?.[IDEMPOTENCY_META_KEY], idempotencyKey(done.runId, 'c0_0'));
    assert.deepEqual(c.args, { note: 'n1' });
  }
});

/** A scripted model that runs `before` once, before its reply for `turn`. */
class ModelThat extends ScriptModel {
  private ran = false;
  constructor(
    script: ModelReply[],
    private readonly turn: number,
    private readonly before: () => Promise<void>,
  ) {
    super(script);
  }
  override async complete(req: ModelRequest): Promise<ModelReply> {
    if (req.turn === this.turn && !this.ran) {
      this.ran = true;
      await this.before();
    }
    return super.complete(req);
  }
}

test('a server that goes away mid-run: a clear error naming it, the run saved with its marker; the resume asks the lookup and the call happens once', async (t) => {
  const w = world(t);
  const rec = path.join(w.dir, 'calls.jsonl');
  const lookup = { create_record: { tool: 'find_record', args: { note: '{note}' }, found: { path: 'notes.0', equals: '{note}' } } };
  const first = await startHttpServer(t, [RECORDER_SERVER], { PORT: '0', RECORD_FILE: rec });
  const mcp = writeConfig(w.dir, { rec: { type: 'http', url: first.url, timeoutMs: 10_000, lookup } });
  const script = [reply(0, [['rec__find_record', { note: 'x' }]]), reply(1, [['rec__create_record', { note: 'n1' }]]), reply(2, [], 'ok')];
  // The server is killed after the run has used it, while the model thinks: its next call finds it gone.
  const e = await run({ w, mcp, script: [], model: new ModelThat(script, 1, () => first.stop()) }).then(
    () => assert.fail('it finished'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof McpServerError && e.kind === 'gone', String(e));
  assert.match(e.message, new RegExp(`MCP server "rec" \\(${first.url.replace(/[.]/g, '\\.')}\\) went away while calling create_record`));
  assert.equal(exitCodeOf(e), EXIT.mcp);
  const runId = (await latestRun(openStateFolder(w.state), { task: 'crash-folder' }))!.runId;
  const s = await readRun(w.state, runId);
  assert.equal(s.phase, 'tools');
  assert.ok(s.attempts?.c1_0, 'the marker is saved');
  assert.equal(s.results?.c1_0, undefined, 'no result was made up');

  const second = await startHttpServer(t, [RECORDER_SERVER], { PORT: '0', RECORD_FILE: rec });
  writeConfig(w.dir, { rec: { type: 'http', url: second.url, timeoutMs: 10_000, lookup } });
  const events: LoopEvent[] = [];
  const person = new CountingPerson();
  const done = await run({ w, mcp, script, person, events });
  assert.equal(done.result.phase, 'done');
  assert.deepEqual(
    events.filter((x) => x.type === 'ladder').map((x) => x.type === 'ladder' && [x.step, x.outcome]),
    [['lookup', 'not-done']],
  );
  assert.equal(person.questions.length, 0);
  assert.deepEqual(
    jsonLines<Line>(rec)
      .filter((l) => l.tool === 'create_record')
      .map((l) => l.args.note),
    ['n1'],
    'created once, after the resume',
  );
});
