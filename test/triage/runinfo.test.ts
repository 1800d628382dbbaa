import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newState } from '../../src/store/state';
import { runInfo } from '../../src/triage/runinfo';

test('a run summary names each waiting question by what its call acts on, also when the model wrote arguments that are not JSON', () => {
  const s = newState({ runId: 'r1', task: 't', config: { workspace: '/ws', provider: 'recorded', model: 'm', keys: true }, system: 's', prompt: 'p' });
  s.phase = 'paused';
  s.pending = [
    {
      kind: 'approval',
      callId: 'c1',
      tool: 'issue_file',
      args: JSON.stringify({ title: 'done N crashes the session', body: 'b', cause: 'x' }),
      askedAt: '2026-12-03T10:00:00Z',
    },
    { kind: 'ladder', callId: 'c2', tool: 'code_patch', args: '{"path": "src/todos.js", "patch":', askedAt: '2026-12-03T10:00:00Z' },
  ];
  const info = runInfo({ runId: 'r1', file: '/state/runs/r1.json', state: s, locked: false });
  assert.deepEqual(info.pending, [
    { kind: 'approval', callId: 'c1', tool: 'issue_file', title: 'File issue: done N crashes the session' },
    { kind: 'ladder', callId: 'c2', tool: 'code_patch', title: 'code_patch (arguments are not valid JSON)' },
  ]);
});
