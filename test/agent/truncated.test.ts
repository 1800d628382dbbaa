/**
 * A reply cut by the model's output token limit is never the run's answer (issue 10, section
 * 3), with both providers over their real wire formats (local 127.0.0.1 servers): the cut
 * reply is saved, the model is told, and the run goes on; a cut tool call fails on its
 * arguments instead of running; replies cut again and again stop the run, and a resume does not
 * pay the saved ones twice.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { MAX_CUT_REPLIES } from '../../src/agent/loop';
import { cutNote } from '../../src/agent/notes';
import { readRun } from '../../src/store/files/checkpoint';
import { ReplyCutError } from '../../src/core/errors';
import { AnthropicProvider } from '../../src/model/anthropic';
import { OpenAIProvider } from '../../src/model/openai';
import type { ModelProvider } from '../../src/model/provider';
import { startServer, type Answer, type FakeServer } from '../model/support/fake-server';
import { anthropicFrames, openaiFrames } from '../model/support/wire';
import { Person, freshState, readTool, tmp } from './support';
import { openStore } from '../../src/store/open-store';

async function server(t: TestContext, script: Answer[]): Promise<FakeServer> {
  const s = await startServer(script);
  t.after(() => s.close());
  return s;
}

const noRetry = { retry: { retries: 0, sleep: async () => undefined } };
const anthropic = (s: FakeServer): ModelProvider => new AnthropicProvider({ apiKey: 'sk-test', baseUrl: s.url, model: 'claude-sonnet-4-5', ...noRetry });
const openai = (s: FakeServer): ModelProvider => new OpenAIProvider({ apiKey: 'sk-test', baseUrl: `${s.url}/v1`, model: 'gpt-4.1-mini', ...noRetry });

/** Every text the model was sent, in order (user content, text blocks), from a request body of either wire format. */
function sentTexts(body: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of ['content', 'text']) if (k in o) walk(o[k]);
    }
  };
  walk((body as { messages?: unknown }).messages);
  return out;
}

function dir(t: TestContext): string {
  const d = tmp();
  t.after(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

test('Anthropic: a reply cut at max_tokens is continued, never taken as the answer', async (t) => {
  const s = await server(t, [
    {
      kind: 'sse',
      frames: anthropicFrames([{ text: ['The cause is the missing guard in ', 'src/todo.js, and the fi'] }], undefined, { stopReason: 'max_tokens' }),
    },
    { kind: 'sse', frames: anthropicFrames([{ text: ['Done: the guard is missing in src/todo.js.'] }]) },
  ]);
  const d = dir(t);
  const parts = (): RunParts => ({ model: anthropic(s), tools: toolSet([readTool()]), approver: new Person() });
  const r = await startRun({ runStore: openStore(d), state: freshState('cut-a', d), parts });
  assert.equal(r.phase, 'done');
  assert.equal(r.answer, 'Done: the guard is missing in src/todo.js.', 'the cut text is not the answer');
  assert.equal(s.requests.length, 2);
  assert.ok(sentTexts(s.requests[1].body).includes(cutNote('max_tokens')), 'the model was told its reply was cut');
  const saved = await readRun(d, 'cut-a');
  assert.equal(saved.turns, 2);
  assert.equal(saved.cutReplies, undefined, 'a whole reply resets the count');
  assert.equal(saved.lastReply?.stopReason, 'end_turn');
});

test('OpenAI: a tool call cut at finish_reason length does not run; the model is told and goes on', async (t) => {
  const s = await server(t, [
    { kind: 'sse', frames: openaiFrames([{ call: { index: 0, id: 'call_1', name: 'read', args: '{"path": "src/to' } }], undefined, { finish: 'length' }) },
    { kind: 'sse', frames: openaiFrames([{ text: 'Read nothing; done.' }]) },
  ]);
  const d = dir(t);
  const read = readTool();
  const parts = (): RunParts => ({ model: openai(s), tools: toolSet([read]), approver: new Person() });
  const r = await startRun({ runStore: openStore(d), state: freshState('cut-o', d), parts });
  assert.equal(r.phase, 'done');
  assert.equal(r.answer, 'Read nothing; done.');
  assert.equal(read.runs, 0, 'the cut call never ran');
  const results = r.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
  assert.equal(results.length, 1);
  assert.equal(results[0].isError, true);
  assert.match(results[0].content, /Invalid arguments for read/);
  assert.ok(sentTexts(s.requests[1].body).includes(cutNote('length')));
});

test(`${MAX_CUT_REPLIES} cut replies in a row stop the run with ReplyCutError; a resume pays none of them again`, async (t) => {
  const cut = (): Answer => ({ kind: 'sse', frames: anthropicFrames([{ text: ['Let me explain at len'] }], undefined, { stopReason: 'max_tokens' }) });
  const s = await server(t, [cut(), cut(), cut(), { kind: 'sse', frames: anthropicFrames([{ text: ['Short answer.'] }]) }]);
  const d = dir(t);
  const parts = (): RunParts => ({ model: anthropic(s), tools: toolSet([readTool()]), approver: new Person() });
  await assert.rejects(
    startRun({ runStore: openStore(d), state: freshState('cut-3', d), parts }),
    (e: unknown) => e instanceof ReplyCutError && e.inARow === MAX_CUT_REPLIES && /max_tokens/.test(e.message),
  );
  const saved = await readRun(d, 'cut-3');
  assert.equal(saved.phase, 'model');
  assert.equal(saved.turns, MAX_CUT_REPLIES, 'every cut reply was saved');
  assert.equal(saved.answer, undefined);
  const r = await resumeRun({ runStore: openStore(d), runId: 'cut-3', parts });
  assert.equal(r.answer, 'Short answer.');
  assert.equal(s.requests.length, MAX_CUT_REPLIES + 1, 'the resume asked once more, for the next reply only');
});
