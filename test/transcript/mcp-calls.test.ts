// A call of an MCP server's tool in the transcript (the Run panel and `triage show`): titled server/tool, with the plug icon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTranscript } from '../../src/transcript/build';
import type { CallView } from '../../src/core/transcript';
import type { RunState } from '../../src/store/state';

const AT = '2025-01-01T00:00:00.000Z';

function callsOf(calls: { name: string; args: unknown }[], mcp?: unknown): CallView[] {
  const state = {
    version: 1,
    runId: 'r1',
    task: 't',
    createdAt: AT,
    updatedAt: AT,
    config: { workspace: '/w', provider: 'recorded', model: 'm', keys: true, ...(mcp ? { mcp } : {}) },
    phase: 'model',
    system: 's',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', calls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, args: JSON.stringify(c.args) })) },
    ],
    usage: { inputTokens: 0, outputTokens: 0, dollars: 0 },
    turns: 1,
    restarts: 0,
  } as unknown as RunState;
  return buildTranscript(state).entries.flatMap((e) => (e.kind === 'call' ? [e.call] : []));
}

const MEMORY = [
  {
    server: 'memory',
    tools: [{ name: 'create_entities', as: 'memory__create_entities', inputSchema: { type: 'object' }, readOnly: false, idempotent: false }],
  },
];

test("an MCP tool's call is titled by its server and tool, with the plug icon, its arguments labelled with the server", () => {
  const args = { entities: [{ name: 'crash-1', entityType: 'crash', observations: [] }] };
  const [v] = callsOf([{ name: 'memory__create_entities', args }], MEMORY);
  assert.equal(v!.tool, 'memory__create_entities');
  assert.equal(v!.title, 'memory/create_entities (MCP)');
  assert.equal(v!.icon, 'plug');
  assert.deepEqual(v!.args, [{ kind: 'code', text: JSON.stringify(args, null, 2), label: 'arguments sent to MCP server "memory"' }]);
});

test('a name the run did not save as an MCP tool keeps the generic view', () => {
  const [v] = callsOf([{ name: 'memory__create_entities', args: {} }]);
  assert.equal(v!.title, 'memory__create_entities');
  assert.equal(v!.icon, undefined);
  const [ours] = callsOf([{ name: 'read_file', args: { path: 'a.js' } }], MEMORY);
  assert.equal(ours!.title, 'Read a.js');
});
