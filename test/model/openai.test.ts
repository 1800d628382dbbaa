import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAIProvider } from '../../src/model/openai';
import { ModelError } from '../../src/core/errors';
import { PriceTable } from '../../src/model/prices';
import { startServer, recordingSleep, type Answer, type FakeServer } from './support/fake-server';
import { openaiFrames, request } from './support/wire';

async function withServer(script: Answer[], fn: (s: FakeServer, sleep: ReturnType<typeof recordingSleep>) => Promise<void>): Promise<void> {
  const s = await startServer(script);
  const sleep = recordingSleep();
  try {
    await fn(s, sleep);
  } finally {
    await s.close();
  }
}

function provider(
  s: FakeServer,
  sleep: ReturnType<typeof recordingSleep>,
  over: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {},
): OpenAIProvider {
  return new OpenAIProvider({ apiKey: 'sk-oa', baseUrl: `${s.url}/v1`, model: 'gpt-4.1-mini', retry: { sleep: sleep.sleep, random: () => 0 }, ...over });
}

const signal = (): AbortSignal => new AbortController().signal;

test('text reply: content deltas joined, cached tokens split out of prompt_tokens, priced', async () => {
  await withServer([{ kind: 'sse', frames: openaiFrames([{ text: 'Hi ' }, { text: 'there' }]), split: true }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'Hi there');
    assert.deepEqual(reply.calls, []);
    assert.equal(reply.replyId, 'chatcmpl-1');
    assert.equal(reply.model, 'gpt-4.1-mini-2025-04-14');
    const raw = { inputTokens: 2000, outputTokens: 100, cacheReadTokens: 1000 };
    assert.deepEqual(reply.usage, { ...raw, dollars: new PriceTable().dollars('gpt-4.1-mini', raw) });
    // gpt-4.1-mini: $0.40 in, $1.60 out, $0.10 cached per million.
    assert.ok(Math.abs(reply.usage.dollars - (2000 * 0.4 + 100 * 1.6 + 1000 * 0.1) / 1e6) < 1e-12);
    const r = s.requests[0];
    assert.equal(r.path, '/v1/chat/completions');
    assert.equal(r.headers.authorization, 'Bearer sk-oa');
    assert.equal(r.body.stream, true);
    assert.deepEqual(r.body.stream_options, { include_usage: true });
    assert.deepEqual(r.body.messages, [
      { role: 'system', content: 'You triage crashes.' },
      { role: 'user', content: 'Triage the crashes in crashes/.' },
    ]);
    assert.deepEqual(r.body.tools, [
      { type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: request().tools[0].schema } },
    ]);
  });
});

test('two tool calls whose argument fragments interleave: concatenated per index', async () => {
  const frames = openaiFrames([
    { call: { index: 0, id: 'call_a', name: 'read_file', args: '' } },
    { call: { index: 0, args: '{"path"' } },
    { call: { index: 1, id: 'call_b', name: 'read_file', args: '{"pa' } },
    { call: { index: 0, args: ': "src/todo.js"}' } },
    { call: { index: 1, args: 'th": "README.md"}' } },
  ]);
  await withServer([{ kind: 'sse', frames }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, undefined);
    assert.deepEqual(reply.calls, [
      { id: 'call_a', name: 'read_file', args: '{"path": "src/todo.js"}' },
      { id: 'call_b', name: 'read_file', args: '{"path": "README.md"}' },
    ]);
  });
});

test('invalid JSON arguments are kept verbatim, and sent back exactly as written', async () => {
  const bad = "{'path': src/todo.js";
  await withServer(
    [
      { kind: 'sse', frames: openaiFrames([{ call: { index: 0, id: 'call_x', name: 'read_file', args: bad } }]) },
      { kind: 'sse', frames: openaiFrames([{ text: 'ok' }]) },
    ],
    async (s, sl) => {
      const p = provider(s, sl);
      const reply = await p.complete(request(), signal());
      assert.deepEqual(reply.calls, [{ id: 'call_x', name: 'read_file', args: bad }]);
      await p.complete(
        request({
          turn: 1,
          messages: [
            { role: 'user', content: 'Triage.' },
            { role: 'assistant', calls: reply.calls },
            { role: 'tool', results: [{ callId: 'call_x', content: 'Invalid arguments for read_file', isError: true }] },
          ],
        }),
        signal(),
      );
      const sent = s.requests[1].body.messages;
      assert.deepEqual(sent[2], {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'read_file', arguments: bad } }],
      });
      assert.deepEqual(sent[3], { role: 'tool', tool_call_id: 'call_x', content: 'Error: Invalid arguments for read_file' });
    },
  );
});

test('429 with retry-after-ms then success: one reply, two requests, the asked-for delay', async () => {
  const script: Answer[] = [
    {
      kind: 'status',
      status: 429,
      headers: { 'retry-after-ms': '1250', 'retry-after': '2' },
      body: { error: { message: 'Rate limit reached', type: 'requests' } },
    },
    { kind: 'sse', frames: openaiFrames([{ text: 'ok' }]) },
  ];
  await withServer(script, async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'ok');
    assert.equal(s.requests.length, 2);
    assert.deepEqual(sl.delays, [1250]);
  });
});

test('500 then success', async () => {
  await withServer(
    [
      { kind: 'status', status: 500, body: { error: { message: 'internal' } } },
      { kind: 'sse', frames: openaiFrames([{ text: 'ok' }]) },
    ],
    async (s, sl) => {
      assert.equal((await provider(s, sl).complete(request(), signal())).text, 'ok');
      assert.equal(s.requests.length, 2);
      assert.deepEqual(sl.delays, [500]); // base 1 s with jitter 0 → half
    },
  );
});

test('a connection dropped mid-stream is retried; the reply comes from the whole second stream', async () => {
  const whole = openaiFrames([{ call: { index: 0, id: 'call_1', name: 'read_file', args: '{"path":' } }, { call: { index: 0, args: '"b.js"}' } }]);
  await withServer(
    [
      { kind: 'sse', frames: whole, dropAfter: 2 },
      { kind: 'sse', frames: whole },
    ],
    async (s, sl) => {
      const reply = await provider(s, sl).complete(request(), signal());
      assert.deepEqual(reply.calls, [{ id: 'call_1', name: 'read_file', args: '{"path":"b.js"}' }]);
      assert.equal(s.requests.length, 2);
    },
  );
});

test('401 → ModelError naming the status, the message and the key', async () => {
  await withServer(
    [{ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided: sk-oa', type: 'invalid_request_error' } } }],
    async (s, sl) => {
      await assert.rejects(
        provider(s, sl).complete(request(), signal()),
        (e: unknown) => e instanceof ModelError && /401/.test(e.message) && /Incorrect API key/.test(e.message) && /API key/i.test(e.message),
      );
      assert.equal(s.requests.length, 1);
    },
  );
});

test('400 is not retried and carries the provider message', async () => {
  await withServer([{ kind: 'status', status: 400, body: { error: { message: "Invalid schema for function 'read_file'" } } }], async (s, sl) => {
    await assert.rejects(provider(s, sl).complete(request(), signal()), /HTTP 400: Invalid schema for function 'read_file'/);
    assert.equal(s.requests.length, 1);
  });
});

test('abort during a request rejects promptly and leaves nothing open', async () => {
  await withServer([{ kind: 'hang' }], async (s, sl) => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const ac = new AbortController();
    const pending = provider(s, sl).complete(request(), ac.signal);
    await s.arrived(1);
    ac.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof Error && e.name === 'AbortError');
    await s.closed(1);
    assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, timersBefore);
  });
});

test('a local server: no key, no usage, no [DONE], calls without ids → $0 reported as unpriced, ids unique per turn', async () => {
  const frames = openaiFrames([{ text: 'Let me look.' }, { call: { index: 0, name: 'read_file', args: '{"path":"c.js"}' } }], null, { done: false });
  const warnings: string[] = [];
  await withServer([{ kind: 'sse', frames }], async (s, sl) => {
    const p = provider(s, sl, { apiKey: undefined, model: 'qwen2.5-coder:7b', warn: (m) => warnings.push(m) });
    const reply = await p.complete(request({ turn: 3 }), signal());
    assert.equal(s.requests[0].headers.authorization, undefined);
    assert.equal(reply.text, 'Let me look.');
    assert.deepEqual(reply.calls, [{ id: 'call_t3_0', name: 'read_file', args: '{"path":"c.js"}' }]);
    assert.deepEqual(reply.usage, { inputTokens: 0, outputTokens: 0, dollars: 0 });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /no token usage.*unpriced/);
    assert.equal(s.requests[0].body.max_tokens, undefined);
  });
});

test('a non-streaming server (application/json) is read as one completion', async () => {
  const body = {
    id: 'chatcmpl-9',
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_j', type: 'function', function: { name: 'read_file', arguments: '{"path":"d.js"}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 50, completion_tokens: 8 },
  };
  await withServer([{ kind: 'json', body }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.deepEqual(reply.calls, [{ id: 'call_j', name: 'read_file', args: '{"path":"d.js"}' }]);
    assert.deepEqual(reply.usage, { inputTokens: 50, outputTokens: 8, dollars: new PriceTable().dollars('gpt-4o-mini', { inputTokens: 50, outputTokens: 8 }) });
  });
});

test('stop reasons: a reply cut by the token limit (length) comes back truncated, streamed and not; a whole one does not', async () => {
  const cut = openaiFrames([{ text: 'The crash is in' }], undefined, { finish: 'length' });
  const whole = openaiFrames([{ call: { index: 0, id: 'call_1', name: 'read_file', args: '{"path":"a.js"}' } }]);
  const cutJson = {
    id: 'chatcmpl-3',
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: 'The crash is in' }, finish_reason: 'length' }],
    usage: { prompt_tokens: 50, completion_tokens: 8 },
  };
  const wholeJson = { ...cutJson, choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }] };
  await withServer(
    [
      { kind: 'sse', frames: cut },
      { kind: 'sse', frames: whole },
      { kind: 'json', body: cutJson },
      { kind: 'json', body: wholeJson },
    ],
    async (s, sl) => {
      const p = provider(s, sl);
      const streamedCut = await p.complete(request(), signal());
      assert.equal(streamedCut.text, 'The crash is in');
      assert.equal(streamedCut.stopReason, 'length');
      assert.equal(streamedCut.truncated, true);
      const streamedWhole = await p.complete(request(), signal());
      assert.equal(streamedWhole.stopReason, 'tool_calls');
      assert.equal('truncated' in streamedWhole, false);
      const plain = provider(s, sl, { stream: false });
      const jsonCut = await plain.complete(request(), signal());
      assert.equal(jsonCut.stopReason, 'length');
      assert.equal(jsonCut.truncated, true);
      assert.equal(s.requests[2].body.stream, false);
      const jsonWhole = await plain.complete(request(), signal());
      assert.equal(jsonWhole.stopReason, 'stop');
      assert.equal('truncated' in jsonWhole, false);
    },
  );
});
