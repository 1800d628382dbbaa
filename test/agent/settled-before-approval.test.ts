// The loop asks a tool's check before a person (issue #23 item 3): a settled call is not asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, type RunParts } from '../../src/agent/runner';
import { toolSet, type Tool } from '../../src/agent/tool';
import { reply, ScriptModel, Service, approvalTool, Person, freshState, tmp } from './support';
import { openStore } from '../../src/store/open-store';

test('a call its tool settles before approval gets that result; nobody is asked; unsettled calls are asked as before', async () => {
  const dir = tmp();
  try {
    const svc = new Service();
    const model = new ScriptModel([
      reply(0, [
        ['file', { note: 'known' }],
        ['file', { note: 'new' }],
      ]),
      reply(1, [], 'done'),
    ]);
    const person = new Person(svc);
    const base = approvalTool(svc);
    const tool: Tool = Object.assign(Object.create(base) as Tool, {
      settledBeforeApproval: async (args: { note: string }) => (args.note === 'known' ? { content: 'already filed as issue #1' } : undefined),
    });
    const parts = (): RunParts => ({ model, tools: toolSet([tool]), approver: person });
    const r = await startRun({ runStore: openStore(dir), state: freshState('s1', dir), parts });
    assert.equal(r.phase, 'done');
    assert.equal(person.approvals, 1, 'only the unsettled call was put to the person');
    assert.equal(person.lastApproval?.title, 'File new');
    const results = r.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
    assert.deepEqual(
      results.find((x) => x.callId === 'c0_0'),
      { callId: 'c0_0', content: 'already filed as issue #1' },
    );
    assert.deepEqual(
      svc.records.map((x) => x.note),
      ['new'],
      'the settled call did not run',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a check that fails asks the person as before', async () => {
  const dir = tmp();
  try {
    const svc = new Service();
    const model = new ScriptModel([reply(0, [['file', { note: 'x' }]]), reply(1, [], 'done')]);
    const person = new Person(svc);
    const tool: Tool = Object.assign(Object.create(approvalTool(svc)) as Tool, {
      settledBeforeApproval: async () => {
        throw new Error('tracker down');
      },
    });
    const r = await startRun({ runStore: openStore(dir), state: freshState('s2', dir), parts: () => ({ model, tools: toolSet([tool]), approver: person }) });
    assert.equal(r.phase, 'done');
    assert.equal(person.approvals, 1);
    assert.deepEqual(
      svc.records.map((x) => x.note),
      ['x'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
