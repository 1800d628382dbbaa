/** Shared fixtures for the durable tests: temp dirs that clean themselves up, and sample states. */
import { newState, type RunState } from '../../../src/store/state';

let counter = 0;

/** A minimal new run state with a unique run ID. */
export function sampleState(workspace = '/tmp/ws', runId = `run-${process.pid}-${Date.now()}-${counter++}`): RunState {
  return newState({
    runId,
    task: 'sample-task',
    config: { workspace, provider: 'recorded', model: 'test-model', keys: true },
    system: 'You triage crashes.',
    prompt: 'Triage crashes/.',
    now: new Date('2025-01-02T03:04:05.000Z'),
  });
}

/** A state with every optional field set. */
export function fullState(runId = `full-${counter++}`): RunState {
  const s = sampleState('/tmp/ws', runId);
  const call = { id: 'call_1', name: 'code_patch', args: '{"path": "a.js"' };
  s.phase = 'tools';
  s.messages.push({ role: 'assistant', text: 'Patching.', calls: [call] }, { role: 'tool', results: [{ callId: 'call_0', content: 'ok', isError: true }] });
  s.usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1, dollars: 0.25 };
  s.turns = 3;
  s.restarts = 1;
  s.summary = { text: 'Earlier turns.', covers: 1 };
  s.pending = [{ kind: 'approval', callId: 'call_1', tool: 'code_patch', args: call.args, askedAt: '2025-01-02T03:05:00.000Z' }];
  s.lastReply = {
    text: 'Patching.',
    calls: [call],
    usage: { inputTokens: 10, outputTokens: 5, dollars: 0.25 },
    model: 'test-model',
    replyId: 'r1',
    stopReason: 'max_tokens',
    truncated: true,
  };
  s.results = { call_0: { callId: 'call_0', content: 'ok' } };
  s.attempts = { call_1: { callId: 'call_1', tool: 'code_patch', startedAt: '2025-01-02T03:05:01.000Z', key: 'k' } };
  s.files = {
    'src/a.js': { sha256: 'a'.repeat(64), size: 3, callId: 'call_1', writtenAt: '2025-01-02T03:05:02.000Z' },
    '/state/worktrees/r/total-1/src/a.js': {
      sha256: 'b'.repeat(64),
      size: 4,
      callId: 'call_2',
      writtenAt: '2025-01-02T03:05:03.000Z',
      before: 'absent',
      worktree: { cause: 'total', dir: '/state/worktrees/r/total-1', path: 'src/a.js' },
    },
  };
  s.inbox = ['note'];
  s.answer = 'Done.';
  s.config.options = { trackerUrl: 'http://127.0.0.1:1' };
  return s;
}
