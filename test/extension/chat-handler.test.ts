import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleChatRequest, type ChatHandlerDeps, type ChatStream, type Followed } from '../../src/extension/logic/chat-handler';
import { QuestionRegistry } from '../../src/extension/logic/questions';

type Call = [kind: 'progress' | 'markdown' | 'button', value: string, command?: string];

function recordingStream(): { stream: ChatStream; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    stream: {
      progress: (v) => calls.push(['progress', v]),
      markdown: (v) => calls.push(['markdown', v.trim()]),
      button: (b) => calls.push(['button', b.title, b.command]),
    },
  };
}

function cancellation(): { token: { isCancellationRequested: boolean; onCancellationRequested(l: () => void): void }; cancel(): void } {
  const listeners: (() => void)[] = [];
  const token = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => void listeners.push(l) };
  return {
    token,
    cancel: () => {
      token.isCancellationRequested = true;
      for (const l of listeners) l();
    },
  };
}

/** A run manager and store stand-in: a run whose end the test decides, and what it is doing. */
function fakeEditor() {
  const questions = new QuestionRegistry<string>();
  const runListeners = new Set<(id: string | undefined) => void>();
  let doing: string | undefined;
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  const started: (string | undefined)[] = [];
  let run: Followed = { runId: 'r1', done };
  const deps: ChatHandlerDeps = {
    status: (runId) => Promise.resolve(`runs: ${runId ?? 'all'}`),
    start: (task) => {
      started.push(task);
      return Promise.resolve(run);
    },
    resume: (runId) => {
      started.push(`resume ${runId ?? '(pick)'}`);
      return Promise.resolve(run);
    },
    questions,
    activity: () => doing,
    onDidChangeRun: (l) => {
      runListeners.add(l);
      return { dispose: () => runListeners.delete(l) };
    },
    result: (runId) => Promise.resolve(`Run \`${runId}\`: done`),
  };
  return {
    deps,
    questions,
    started,
    end,
    noRun: () => (run = { done: Promise.resolve() }),
    setActivity(a: string) {
      doing = a;
      for (const l of runListeners) l('r1');
    },
    listenerCount: () => runListeners.size,
  };
}

test('@triage /start: progress, the run with an Open Run Panel button, the approval as Approve/Deny buttons once, then the result', async () => {
  const e = fakeEditor();
  const { stream, calls } = recordingStream();
  const { token } = cancellation();
  const handled = handleChatRequest({ command: 'start', prompt: 'cart-unknown-coupon' }, stream, token, e.deps);
  // The run asks an approval while the chat watches it; a second change does not show it twice.
  await new Promise((r) => setImmediate(r));
  e.setActivity('turn 2: reading src/cart.js');
  e.questions.ask({ runId: 'r1', callId: 'c1', kind: 'approval', tool: 'issue_file', message: 'm', title: 'File issue: X' });
  e.questions.ask({ runId: 'r2', callId: 'c9', kind: 'approval', tool: 'issue_file', message: 'another run' });
  e.end();
  await handled;
  assert.deepEqual(e.started, ['cart-unknown-coupon']);
  assert.deepEqual(calls, [
    ['progress', 'Starting the run…'],
    ['markdown', 'Run `r1` is running.'],
    ['button', 'Open Run Panel', 'durableTriage.openRun'],
    ['progress', 'turn 2: reading src/cart.js'],
    ['markdown', '**Approve?** File issue: X (run `r1`)'],
    ['button', 'Approve', 'durableTriage.approve'],
    ['button', 'Deny', 'durableTriage.deny'],
    ['markdown', 'Run `r1`: done'],
    ['button', 'Open Run Panel', 'durableTriage.openRun'],
  ]);
  assert.equal(e.listenerCount(), 0, 'the handler stops listening when the run ends');
});

test('@triage: a cancelled request stops streaming (the run goes on, no result); nothing running says so; /status lists open questions', async () => {
  const e = fakeEditor();
  const { stream, calls } = recordingStream();
  const c = cancellation();
  const handled = handleChatRequest({ prompt: 'resume r1' }, stream, c.token, e.deps);
  await new Promise((r) => setImmediate(r));
  c.cancel();
  await handled;
  assert.deepEqual(e.started, ['resume r1']);
  assert.deepEqual(calls.at(-1), ['button', 'Open Run Panel', 'durableTriage.openRun'], `no result after the cancel: ${JSON.stringify(calls)}`);
  assert.ok(!calls.some(([, v]) => v.includes('done')));

  e.noRun();
  const none = recordingStream();
  await handleChatRequest({ command: 'resume', prompt: '' }, none.stream, cancellation().token, e.deps);
  assert.deepEqual(e.started.at(-1), 'resume (pick)');
  assert.match(none.calls.at(-1)![1], /^Nothing is running/);

  e.questions.ask({ runId: 'r1', callId: 'c2', kind: 'ladder', tool: 'code_patch', message: 'm' });
  const status = recordingStream();
  await handleChatRequest({ command: 'status', prompt: 'r1' }, status.stream, cancellation().token, e.deps);
  assert.deepEqual(status.calls, [
    ['markdown', 'runs: r1'],
    ['markdown', '**Did it happen?** code_patch may or may not have run before the restart (run `r1`)'],
    ['button', 'Answer…', 'durableTriage.showQuestion'],
  ]);

  const help = recordingStream();
  await handleChatRequest({ prompt: 'hello' }, help.stream, cancellation().token, e.deps);
  assert.match(help.calls[0][1], /^Durable Triage: `\/start \[task\]`/);
});
