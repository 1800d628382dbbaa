// The transcript's words for how a run stopped and restarted (issue #23 items 4, 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTranscript } from '../../src/transcript/build';
import type { RunState } from '../../src/store/state';
import type { RunEvent } from '../../src/store/run-event';

const AT = '2025-01-01T00:00:00.000Z';

function pausedState(provider: string): RunState {
  return {
    version: 1,
    runId: 'r1',
    task: 't',
    createdAt: AT,
    updatedAt: AT,
    config: { workspace: '/w', provider, model: 'm', keys: true },
    phase: 'paused',
    system: 's',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', text: 'filing', calls: [{ id: 'c1', name: 'issue_file', args: '{"title":"Crash in parse"}' }] },
    ],
    usage: { inputTokens: 1, outputTokens: 1, dollars: 0 },
    turns: 1,
    restarts: 0,
    pending: [{ kind: 'approval', callId: 'c1', tool: 'issue_file', args: '{}', askedAt: AT }],
  } as unknown as RunState;
}

const changedStop: RunEvent = {
  type: 'stopped',
  at: AT,
  how: 'error',
  code: 'workspace-changed',
  message:
    "Files written by run r1 changed since it wrote them: src/a.js (expected 0, found 1). Restore the agent's version, or accept the current files so the model is told what changed.",
  files: ['src/a.js'],
};

test('a paused run stopped because files it wrote changed: no question waits, the stop says what to do in words the model allows', () => {
  const t = buildTranscript(pausedState('recorded'), {
    events: [{ type: 'opened', at: AT, resumed: false, reask: false, restarts: 0, turn: 0, phase: 'model' }, changedStop],
    skipped: 0,
  });
  assert.deepEqual(t.pending, [], 'no Approve/Deny, no "waiting for you" for a run that cannot go on until its files are settled');
  assert.equal(t.status, 'stopped: files it wrote changed');
  const stop = t.entries.at(-1);
  assert.ok(stop?.kind === 'history');
  assert.equal(stop.title, 'Stopped: files the agent wrote have changed');
  const text = stop.lines.join(' ');
  assert.match(text, /src\/a\.js/);
  assert.match(text, /Restore puts the agent's version back \(the recorded demo cannot go on from edited files\)/);
  assert.doesNotMatch(text, /accept the current files|Keep My Edits/, 'the recorded demo cannot keep edits; it is not offered');
});

test('with a live model the changed-files stop offers Keep My Edits; a plain pause still waits for you', () => {
  const live = buildTranscript(pausedState('anthropic'), { events: [changedStop], skipped: 0 });
  assert.match((live.entries.at(-1) as { lines: string[] }).lines.join(' '), /Keep My Edits goes on with yours/);
  const paused = buildTranscript(pausedState('recorded'), { events: [{ type: 'stopped', at: AT, how: 'paused' }], skipped: 0 });
  assert.equal(paused.pending.length, 1);
  assert.equal(paused.status, 'waiting for you');
});

const reopened = (reask: boolean): RunEvent => ({ type: 'opened', at: AT, resumed: true, reask, restarts: reask ? 0 : 1, turn: 1, phase: 'paused' });

function historyTitles(events: RunEvent[]): string[] {
  return buildTranscript(pausedState('recorded'), { events, skipped: 0 }).entries.flatMap((e) => (e.kind === 'history' ? [e.title] : []));
}

test("restart words say what happened in a person's words: a reload, a Cancel, a stopped extension host", () => {
  assert.deepEqual(historyTitles([{ type: 'stopped', at: AT, how: 'cancelled', code: 'window-closed' }, reopened(false)]), [
    'Restart 1: resumed at turn 1 after the window was reloaded or closed',
  ]);
  assert.deepEqual(historyTitles([{ type: 'stopped', at: AT, how: 'cancelled', code: 'cancelled' }, reopened(false)]), [
    'Restart 1: resumed at turn 1 after you cancelled it',
  ]);
  assert.deepEqual(historyTitles([{ type: 'stopped', at: AT, how: 'error', message: 'Channel has been closed' }, reopened(true)]), [
    'Reopened at turn 1 to ask the saved question again (not a restart) after the window was reloaded or closed',
  ]);
  const crash = historyTitles([reopened(false)])[0];
  assert.match(
    crash,
    /^Restart 1: resumed at turn 1 after the process ended without saving \(the editor's extension host or the CLI stopped: a crash or a kill\)$/,
  );
  assert.deepEqual(historyTitles([{ type: 'stopped', at: AT, how: 'cancelled', code: 'window-closed' }]), [
    'Stopped: the window was reloaded or closed; it can be resumed',
  ]);
});

test('a restart before the run wrote any file says so, not "0 files the run wrote are as it left them"', () => {
  const lines = (files: number): string[] =>
    buildTranscript(pausedState('recorded'), {
      events: [reopened(false), { type: 'workspace-checked', at: AT, files, after: 'restart' }],
      skipped: 0,
    }).entries.flatMap((e) => (e.kind === 'history' ? e.lines : []));
  assert.ok(lines(0).includes('Workspace checked: the run had written no files yet.'), JSON.stringify(lines(0)));
  assert.ok(lines(2).includes('Workspace checked: 2 files the run wrote are as it left them.'), JSON.stringify(lines(2)));
});
