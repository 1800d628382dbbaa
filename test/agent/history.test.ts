// The run's history: claims are recorded only once a save covers them; a crash records
// nothing more; a stop is recorded with its reason; answers carry who gave them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import type { RunEvent, RunEventLog, RunEventStore } from '../../src/store/run-event';
import { reply, ScriptModel, Service, approvalTool, lookupTool, Person, freshState } from './support';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

class MemoryEvents implements RunEventStore {
  readonly byRun = new Map<string, RunEvent[]>();
  async append(runId: string, events: readonly RunEvent[]): Promise<void> {
    this.byRun.set(runId, [...(this.byRun.get(runId) ?? []), ...events]);
  }
  async read(runId: string): Promise<RunEventLog> {
    return { events: this.byRun.get(runId) ?? [], skipped: 0 };
  }
  async remove(runId: string): Promise<void> {
    this.byRun.delete(runId);
  }
  types(runId: string): string[] {
    return (this.byRun.get(runId) ?? []).map((e) =>
      e.type === 'stopped' ? `stopped:${e.how}` : e.type === 'ladder' ? `ladder:${e.rung}:${e.outcome}` : e.type,
    );
  }
}

test('a run records its lives: opened, replies, answers with who gave them, and how each life stopped', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const model = new ScriptModel([reply(0, [['file', { note: 'x' }]]), reply(1, [], 'done')]);
  const person = new Person(svc);
  person.answer = 'later';
  const parts = (): RunParts => ({ model, tools: toolSet([approvalTool(svc)]), approver: person });
  const events = new MemoryEvents();
  await startRun({ runStore: openStore(dir), state: freshState('h1', dir), parts, events });
  assert.deepEqual(events.types('h1'), ['opened', 'reply', 'stopped:paused']);
  person.answer = 'approve';
  (person as Person & { answeredBy(): string }).answeredBy = () => 'you, in a test';
  await resumeRun({ runStore: openStore(dir), runId: 'h1', parts, events });
  assert.deepEqual(events.types('h1'), [
    'opened',
    'reply',
    'stopped:paused',
    'opened',
    'workspace-checked',
    'answer',
    'workspace-checked',
    'reply',
    'stopped:done',
  ]);
  const all = events.byRun.get('h1')!;
  const reopened = all[3];
  assert.ok(reopened.type === 'opened' && reopened.resumed && reopened.reask && reopened.nextCall === 'c0_0');
  const answer = all[5];
  assert.ok(answer.type === 'answer' && answer.answer === 'approve' && answer.by === 'you, in a test');
});

test('a crash records nothing after the last save: the ladder decision of the next life is recorded once its result is saved', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const model = new ScriptModel([reply(0, [['looked', { note: 'x' }]]), reply(1, [], 'done')]);
  const parts = (): RunParts => ({ model, tools: toolSet([lookupTool(svc)]), approver: new Person(svc) });
  const events = new MemoryEvents();
  let acted = false;
  const crash = (p: string): void => {
    if (p === 'tool:acted' && !acted) {
      acted = true;
      throw new SimulatedCrash(p);
    }
  };
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('h2', dir), parts, events, crash }), SimulatedCrash);
  assert.deepEqual(events.types('h2'), ['opened', 'reply'], 'no stop is recorded for a crash');
  const crashAtResult = (p: string): void => {
    if (p === SavePoint.ResultSaved) throw new SimulatedCrash(p);
  };
  await assert.rejects(resumeRun({ runStore: openStore(dir), runId: 'h2', parts, events, crash: crashAtResult }), SimulatedCrash);
  assert.deepEqual(
    events.types('h2'),
    ['opened', 'reply', 'opened', 'workspace-checked', 'ladder:lookup:done'],
    'the decision is recorded: its result was saved before the crash',
  );
  await resumeRun({ runStore: openStore(dir), runId: 'h2', parts, events });
  assert.equal(svc.effects, 1);
  assert.deepEqual(events.types('h2').slice(5), ['opened', 'workspace-checked', 'reply', 'stopped:done']);
});

test('an error stop drops the claims its last save did not cover and records the stop with its code', async (t) => {
  const dir = tempDir(t);
  const svc = new Service();
  const model = new ScriptModel([reply(0, [['file', { note: 'x' }]])]);
  const person = new Person(svc);
  const ac = new AbortController();
  person.approve = async () => {
    ac.abort();
    return 'approve';
  };
  const parts = (): RunParts => ({ model, tools: toolSet([approvalTool(svc)]), approver: person });
  const events = new MemoryEvents();
  await assert.rejects(startRun({ runStore: openStore(dir), state: freshState('h3', dir), parts, events, signal: ac.signal }));
  assert.deepEqual(
    events.types('h3'),
    ['opened', 'reply', 'workspace-checked', 'stopped:cancelled'],
    'the approval was not saved (cancelled before its marker), so it is not claimed; the check after it is kept',
  );
  const stop = events.byRun.get('h3')!.at(-1)!;
  assert.ok(stop.type === 'stopped' && stop.code === 'cancelled');
});
