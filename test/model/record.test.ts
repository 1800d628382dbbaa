import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { RecordingProvider, expectOf } from '../../src/model/recording-writer';
import { RecordedModel } from '../../src/model/recorded-provider';
import { validateRecording } from '../../src/model/recording-format';
import type { ModelProvider, ModelRequest } from '../../src/model/provider';
import { PriceTable } from '../../src/model/prices';
import type { Message, ModelReply } from '../../src/core/conversation';
import { request } from './support/wire';

const live = (): AbortSignal => new AbortController().signal;

/** A stand-in live provider: scripted replies, with dollars as a live provider reports them. */
function scripted(replies: ModelReply[]): ModelProvider & { calls: number } {
  const p = {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    prices: new PriceTable(),
    calls: 0,
    async complete(_req: ModelRequest): Promise<ModelReply> {
      return replies[p.calls++];
    },
  };
  return p;
}

const replies: ModelReply[] = [
  {
    text: 'Reading.',
    calls: [{ id: 'toolu_1', name: 'read_file', args: '{"path":"a.js"' }],
    usage: { inputTokens: 900, outputTokens: 40, cacheReadTokens: 100, dollars: 0.0033 },
    model: 'claude-sonnet-4-5',
    replyId: 'msg_1',
  },
  { text: 'All done: filed #1.', calls: [], usage: { inputTokens: 1200, outputTokens: 60, dollars: 0.0045 }, model: 'claude-sonnet-4-5' },
];

async function tmp(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'record-test-'));
}

test('a live run recorded to a file round-trips through the Recording type and replays with the recorded model', async () => {
  const dir = await tmp();
  try {
    const file = path.join(dir, 'sub', 'run.json');
    const init = { task: 'm1-done-after-delete', system: 'You triage crashes.', prompt: 'Triage the crashes in crashes/.' };
    const rec = new RecordingProvider(scripted(replies), file, init, {
      now: (() => {
        let t = 0;
        return () => (t += 1500);
      })(),
    });
    assert.equal(rec.provider, 'anthropic');
    assert.equal(rec.model, 'claude-sonnet-4-5');
    const req0 = request();
    const r0 = await rec.complete(req0, live());
    assert.deepEqual(r0, replies[0]); // the caller gets the live reply untouched
    const msgs1: Message[] = [
      ...req0.messages,
      { role: 'assistant', text: r0.text, calls: r0.calls },
      { role: 'tool', results: [{ callId: 'toolu_1', content: 'Invalid arguments', isError: true }] },
    ];
    const req1 = request({ turn: 1, messages: msgs1 });
    await rec.complete(req1, live());

    const saved = validateRecording(JSON.parse(await fs.readFile(file, 'utf8')));
    assert.equal(saved.task, init.task);
    assert.equal(saved.model, 'claude-sonnet-4-5');
    assert.equal(saved.system, init.system);
    assert.equal(saved.prompt, init.prompt);
    assert.equal(saved.turns.length, 2);
    assert.deepEqual(saved.turns[0], {
      expect: { messages: 1, toolResults: [] },
      reply: {
        text: 'Reading.',
        calls: [{ id: 'toolu_1', name: 'read_file', args: '{"path":"a.js"' }],
        usage: { inputTokens: 900, outputTokens: 40, cacheReadTokens: 100 },
      },
      latencyMs: 1500,
    });
    assert.deepEqual(saved.turns[1].expect, { messages: 3, toolResults: ['toolu_1'] });
    assert.equal((await fs.readdir(path.dirname(file))).length, 1, 'no temp files left behind');

    // The recording replays: the same requests get the same calls and tokens back.
    const replay = new RecordedModel(saved);
    assert.deepEqual((await replay.complete(req0, live())).calls, r0.calls);
    assert.equal((await replay.complete(req1, live())).text, 'All done: filed #1.');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a resumed run recording to the same file continues it from the resumed turn', async () => {
  const dir = await tmp();
  try {
    const file = path.join(dir, 'run.json');
    const init = { task: 't', system: 'You triage crashes.', prompt: 'Triage the crashes in crashes/.' };
    await new RecordingProvider(scripted(replies), file, init).complete(request(), live());
    // A new process: the reply of turn 1 is recorded after the first.
    const second = new RecordingProvider(scripted([replies[1]]), file, init);
    await second.complete(request({ turn: 1 }), live());
    const saved = validateRecording(JSON.parse(await fs.readFile(file, 'utf8')));
    assert.deepEqual(
      saved.turns.map((t) => t.reply.text),
      ['Reading.', 'All done: filed #1.'],
    );
    // A different run into the same file replaces it.
    await new RecordingProvider(scripted([replies[1]]), file, { ...init, task: 'other' }).complete(request(), live());
    const other = validateRecording(JSON.parse(await fs.readFile(file, 'utf8')));
    assert.equal(other.task, 'other');
    assert.equal(other.turns.length, 1);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a recording that cannot be written is reported, and the reply still reaches the run', async () => {
  const dir = await tmp();
  try {
    const blocker = path.join(dir, 'file');
    await fs.writeFile(blocker, 'x');
    const warnings: string[] = [];
    const rec = new RecordingProvider(
      scripted(replies),
      path.join(blocker, 'run.json'),
      { task: 't', system: 's', prompt: 'p' },
      { warn: (m) => warnings.push(m) },
    );
    const r = await rec.complete(request(), live());
    assert.equal(r.text, 'Reading.');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /Could not write the recording .*run\.json/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('expect: the messages sent and the IDs of the tool results that end them', () => {
  assert.deepEqual(expectOf(request()), { messages: 1, toolResults: [] });
  const msgs: Message[] = [
    { role: 'user', content: 'x' },
    {
      role: 'assistant',
      calls: [
        { id: 'a', name: 'n', args: '{}' },
        { id: 'b', name: 'n', args: '{}' },
      ],
    },
    {
      role: 'tool',
      results: [
        { callId: 'a', content: '' },
        { callId: 'b', content: '' },
      ],
    },
  ];
  assert.deepEqual(expectOf(request({ messages: msgs })), { messages: 3, toolResults: ['a', 'b'] });
});

test("a reply's stop reason and truncated flag are recorded and replayed; recordings without them still load", async () => {
  const dir = await tmp();
  try {
    const file = path.join(dir, 'run.json');
    const cut: ModelReply = {
      text: 'The crash is in',
      calls: [],
      usage: { inputTokens: 10, outputTokens: 5, dollars: 0 },
      model: 'claude-sonnet-4-5',
      stopReason: 'max_tokens',
      truncated: true,
    };
    await new RecordingProvider(scripted([cut]), file, { task: 't', system: 'You triage crashes.', prompt: 'Triage the crashes in crashes/.' }).complete(
      request(),
      live(),
    );
    const raw = JSON.parse(await fs.readFile(file, 'utf8'));
    const saved = validateRecording(raw);
    assert.equal(saved.turns[0].reply.stopReason, 'max_tokens');
    assert.equal(saved.turns[0].reply.truncated, true);
    const replayed = await new RecordedModel(saved).complete(request(), live());
    assert.equal(replayed.stopReason, 'max_tokens');
    assert.equal(replayed.truncated, true);

    delete raw.turns[0].reply.stopReason;
    delete raw.turns[0].reply.truncated;
    const old = await new RecordedModel(validateRecording(raw)).complete(request(), live());
    assert.equal('stopReason' in old, false);
    assert.equal('truncated' in old, false);

    raw.turns[0].reply.truncated = false;
    assert.throws(() => validateRecording(raw), /\$\.turns\[0\]\.reply\.truncated/);
    raw.turns[0].reply.truncated = true;
    raw.turns[0].reply.stopReason = 3;
    assert.throws(() => validateRecording(raw), /\$\.turns\[0\]\.reply\.stopReason/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
