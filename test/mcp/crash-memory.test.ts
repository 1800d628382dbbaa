/**
 * A run that uses @modelcontextprotocol/server-memory (from npm, over stdio) dies right after
 * create_entities returns and before its result is saved; the rerun resolves the call through
 * the ladder: with a lookup configured (open_nodes) the server is asked and the entity is there
 * once, nobody asked; without one, a person is asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { readRun } from '../../src/store/files/checkpoint';
import type { LoopEvent } from '../../src/agent/loop';
import { reply, ScriptModel } from '../agent/support';
import { CountingPerson, dieAfter, jsonLines, MEMORY_SERVER, run, world, writeConfig } from './support';

const CREATE = 'memory__create_entities';
const ENTITY = { name: 'crash-42', entityType: 'crash', observations: ['TypeError in parseDuration'] };
const script = [reply(0, [[CREATE, { entities: [ENTITY] }]]), reply(1, [], 'Recorded the crash.')];

function memoryServer(file: string, lookup: boolean): Record<string, unknown> {
  return {
    memory: {
      type: 'stdio',
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: file },
      ...(lookup
        ? {
            lookup: {
              create_entities: { tool: 'open_nodes', args: { names: ['{entities.0.name}'] }, found: { path: 'entities.0.name', equals: '{entities.0.name}' } },
            },
          }
        : {}),
    },
  };
}

function entitiesNamed(file: string, name: string): number {
  return jsonLines<{ type: string; name?: string }>(file).filter((l) => l.type === 'entity' && l.name === name).length;
}

for (const lookup of [true, false]) {
  test(`killed after create_entities returned: the rerun ${lookup ? 'asks open_nodes, nobody is asked' : 'asks a person'}, and the memory holds the entity once`, async (t) => {
    const w = world(t);
    const memory = path.join(w.dir, 'memory.jsonl');
    const mcp = writeConfig(w.dir, memoryServer(memory, lookup));

    const first = new ScriptModel(script);
    await assert.rejects(run({ w, mcp, script, model: first, crash: dieAfter(CREATE) }), SimulatedCrash);
    assert.equal(entitiesNamed(memory, ENTITY.name), 1, 'the call happened before the crash');
    const offered = first.lastRequest!.tools.map((s) => s.name);
    assert.ok(offered.includes(CREATE) && offered.includes('memory__open_nodes'), offered.join(', '));
    // the model is sent the server's own input schema
    const spec = first.lastRequest!.tools.find((s) => s.name === CREATE)!;
    assert.ok('entities' in spec.schema.properties, JSON.stringify(spec.schema));

    const events: LoopEvent[] = [];
    const person = new CountingPerson();
    const second = new ScriptModel(script);
    const done = await run({ w, mcp, script, model: second, person, events });
    assert.equal(done.result.phase, 'done');
    assert.equal(done.result.restarts, 1);
    assert.equal(entitiesNamed(memory, ENTITY.name), 1, 'never created twice');
    assert.deepEqual(
      second.lastRequest!.tools.map((s) => s.name),
      offered,
      'the resumed run offers the same tools',
    );
    const saved = await readRun(w.state, done.runId);
    const tools = saved.config.mcp?.[0].tools ?? [];
    assert.deepEqual(
      tools.filter((x) => x.name === 'create_entities').map((x) => [x.as, x.readOnly, x.idempotent]),
      [[CREATE, false, false]],
    );
    const { $schema: _, ...declared } = tools.find((x) => x.name === 'create_entities')!.inputSchema;
    assert.deepEqual(spec.schema, declared, "the model is sent the server's schema as it is");
    const ladder = events.filter((e) => e.type === 'ladder');
    if (lookup) {
      assert.equal(person.questions.length, 0);
      assert.deepEqual(
        ladder.map((e) => e.type === 'ladder' && [e.step, e.outcome]),
        [['lookup', 'done']],
      );
      const result = saved.messages.flatMap((m) => (m.role === 'tool' ? m.results : []))[0];
      assert.match(result.content, /found by open_nodes/);
    } else {
      assert.deepEqual(
        person.questions.map((q) => q.tool),
        [CREATE],
      );
      assert.match(person.questions[0].reason, /no lookup/);
    }
  });
}
