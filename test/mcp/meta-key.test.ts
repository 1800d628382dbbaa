/**
 * Our stand-in MCP server records each request's `_meta` and arguments: the idempotency key
 * arrives in `_meta` under io.durabletriage/idempotency-key, is the same after a restart, and is
 * never among the arguments. Approvals can name the tool `server/tool`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { IDEMPOTENCY_META_KEY } from '../../src/mcp/names';
import { reply } from '../agent/support';
import { CountingPerson, dieAfter, jsonLines, RECORDER_SERVER, run, world, writeConfig } from './support';

interface Line {
  tool: string;
  args: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

test('the key travels in _meta, stays the same across the restart, and is never in the arguments', async (t) => {
  const w = world(t);
  const rec = path.join(w.dir, 'calls.jsonl');
  // The stand-in honours nothing, but is configured as keeping keys for an hour: the ladder's first step sends the call again, with the same key.
  const mcp = writeConfig(w.dir, { rec: { command: process.execPath, args: [RECORDER_SERVER], env: { RECORD_FILE: rec }, keyRetentionMs: 3_600_000 } });
  const script = [reply(0, [['rec__create_record', { note: 'n1' }]]), reply(1, [], 'ok')];
  const person = new CountingPerson();
  await assert.rejects(run({ w, mcp, script, person, crash: dieAfter('rec__create_record'), approvalTools: ['rec/create_record'] }), SimulatedCrash);
  assert.deepEqual(
    person.approvals.map((a) => a.tool),
    ['rec__create_record'],
    'approval.tools names it server/tool',
  );
  const done = await run({ w, mcp, script, person, approvalTools: ['rec/create_record'] });
  assert.equal(done.result.phase, 'done');
  const calls = jsonLines<Line>(rec).filter((l) => l.tool === 'create_record');
  const key = idempotencyKey(done.runId, 'c0_0');
  assert.equal(calls.length, 2, 'sent before the crash, and again by the ladder');
  for (const c of calls) {
    assert.equal(c.meta?.[IDEMPOTENCY_META_KEY], key);
    assert.deepEqual(c.args, { note: 'n1' });
    assert.ok(!JSON.stringify(c.args).includes(key));
  }
  assert.equal(person.questions.length, 0);
});

test('with keys off, no key is sent', async (t) => {
  const w = world(t);
  const rec = path.join(w.dir, 'calls.jsonl');
  const mcp = writeConfig(w.dir, { rec: { command: process.execPath, args: [RECORDER_SERVER], env: { RECORD_FILE: rec } } });
  const { runTriage } = await import('../../src/triage/job');
  const { ScriptModel } = await import('../agent/support');
  await runTriage({
    stateDir: w.state,
    task: 'crash-folder',
    workspace: w.ws,
    crashes: 'crashes',
    model: new ScriptModel([reply(0, [['rec__create_record', { note: 'n1' }]]), reply(1, [], 'ok')]),
    approver: new CountingPerson(),
    mcpConfig: mcp,
    keys: false,
    store: { sync: false },
  });
  const calls = jsonLines<Line>(rec).filter((l) => l.tool === 'create_record');
  assert.equal(calls.length, 1);
  assert.equal(calls[0].meta?.[IDEMPOTENCY_META_KEY], undefined);
});
