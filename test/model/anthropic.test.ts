import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnthropicProvider } from '../../src/model/anthropic';
import { ModelError } from '../../src/core/errors';
import { PriceTable } from '../../src/model/prices';
import { startServer, recordingSleep, type Answer, type FakeServer } from './support/fake-server';
import { anthropicFrames, request } from './support/wire';

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
  over: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {},
): AnthropicProvider {
  return new AnthropicProvider({ apiKey: 'sk-test', baseUrl: s.url, model: 'claude-sonnet-4-5', retry: { sleep: sleep.sleep, random: () => 0.5 }, ...over });
}

const signal = (): AbortSignal => new AbortController().signal;

test('text reply: streamed deltas joined, usage priced, headers and body as the API wants', async () => {
  await withServer([{ kind: 'sse', frames: anthropicFrames([{ text: ['Hel', 'lo, ', 'world'] }]), split: true }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'Hello, world');
    assert.deepEqual(reply.calls, []);
    assert.equal(reply.replyId, 'msg_01');
    assert.equal(reply.model, 'claude-sonnet-4-5-20250929');
    assert.deepEqual(
      { ...reply.usage, dollars: undefined },
      { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 2000, cacheWriteTokens: 500, dollars: undefined },
    );
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    assert.ok(Math.abs(reply.usage.dollars - (1000 * 3 + 200 * 15 + 2000 * 0.3 + 500 * 3.75) / 1e6) < 1e-12);
    assert.equal(s.requests.length, 1);
    const r = s.requests[0];
    assert.equal(r.path, '/v1/messages');
    assert.equal(r.headers['x-api-key'], 'sk-test');
    assert.equal(r.headers['anthropic-version'], '2023-06-01');
    assert.equal(r.body.stream, true);
    assert.equal(r.body.model, 'claude-sonnet-4-5');
    assert.equal(r.body.max_tokens, 8192);
    assert.equal(r.body.system[0].text, 'You triage crashes.');
    assert.deepEqual(r.body.tools, [{ name: 'read_file', description: 'Reads a file.', input_schema: request().tools[0].schema }]);
    assert.equal(r.body.messages[0].role, 'user');
    assert.equal(r.body.messages[0].content[0].text, 'Triage the crashes in crashes/.');
  });
});

test('two tool calls with arguments split across deltas: raw concatenation is the args string', async () => {
  const frames = anthropicFrames([
    { text: ['Reading both.'] },
    { tool: { id: 'toolu_a', name: 'read_file', parts: ['{"pa', 'th": "src/', 'todo.js"}'] } },
    { tool: { id: 'toolu_b', name: 'read_file', parts: ['', '{"path":', ' "README.md"}'] } },
  ]);
  await withServer([{ kind: 'sse', frames }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'Reading both.');
    assert.deepEqual(reply.calls, [
      { id: 'toolu_a', name: 'read_file', args: '{"path": "src/todo.js"}' },
      { id: 'toolu_b', name: 'read_file', args: '{"path": "README.md"}' },
    ]);
  });
});

test('a tool call whose JSON arguments are invalid keeps them verbatim; sent back later as input {}', async () => {
  const bad = '{"path": "src/todo.js", ';
  await withServer(
    [
      { kind: 'sse', frames: anthropicFrames([{ tool: { id: 'toolu_x', name: 'read_file', parts: ['{"path": ', '"src/todo.js", '] } }]) },
      { kind: 'sse', frames: anthropicFrames([{ text: ['ok'] }]) },
    ],
    async (s, sl) => {
      const p = provider(s, sl);
      const reply = await p.complete(request(), signal());
      assert.deepEqual(reply.calls, [{ id: 'toolu_x', name: 'read_file', args: bad }]);
      const next = request({
        turn: 1,
        messages: [
          { role: 'user', content: 'Triage.' },
          { role: 'assistant', calls: reply.calls },
          { role: 'tool', results: [{ callId: 'toolu_x', content: 'Invalid arguments for read_file: Unexpected end of JSON input', isError: true }] },
        ],
      });
      await p.complete(next, signal());
      const sent = s.requests[1].body.messages;
      assert.deepEqual(sent[1], { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'read_file', input: {} }] });
      assert.equal(sent[2].content[0].type, 'tool_result');
      assert.equal(sent[2].content[0].tool_use_id, 'toolu_x');
      assert.equal(sent[2].content[0].is_error, true);
    },
  );
});

test('429 with retry-after: one reply to the caller, two requests, the wait the header asked for', async () => {
  const script: Answer[] = [
    { kind: 'status', status: 429, headers: { 'retry-after': '7' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
    { kind: 'sse', frames: anthropicFrames([{ text: ['done'] }]) },
  ];
  await withServer(script, async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'done');
    assert.equal(s.requests.length, 2);
    assert.deepEqual(sl.delays, [7000]);
  });
});

test('500 then success: retried after a backoff delay', async () => {
  const script: Answer[] = [
    { kind: 'status', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'boom' } } },
    { kind: 'sse', frames: anthropicFrames([{ text: ['fine'] }]) },
  ];
  await withServer(script, async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'fine');
    assert.equal(s.requests.length, 2);
    assert.equal(sl.delays.length, 1);
    assert.equal(sl.delays[0], 750); // base 1 s, jitter 0.5 → half + half·0.5
  });
});

test('overloaded error event in the stream is retried like a 529', async () => {
  const frames = anthropicFrames([{ text: ['par'] }]).slice(0, 4);
  frames.push(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`);
  await withServer(
    [
      { kind: 'sse', frames },
      { kind: 'sse', frames: anthropicFrames([{ text: ['whole'] }]) },
    ],
    async (s, sl) => {
      const reply = await provider(s, sl).complete(request(), signal());
      assert.equal(reply.text, 'whole');
      assert.equal(s.requests.length, 2);
    },
  );
});

test('a connection dropped mid-stream, and a stream that ends before message_stop, are retried', async () => {
  const whole = anthropicFrames([{ tool: { id: 'toolu_1', name: 'read_file', parts: ['{"path":', '"a.js"}'] } }]);
  const script: Answer[] = [
    { kind: 'sse', frames: whole, dropAfter: 4 },
    { kind: 'sse', frames: whole.slice(0, -1) },
    { kind: 'sse', frames: whole },
  ];
  await withServer(script, async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.deepEqual(reply.calls, [{ id: 'toolu_1', name: 'read_file', args: '{"path":"a.js"}' }]);
    assert.equal(s.requests.length, 3);
    assert.equal(sl.delays.length, 2);
  });
});

test('401 is not retried: ModelError with the status, the provider message and "check your API key"', async () => {
  const script: Answer[] = [{ kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } }];
  await withServer(script, async (s, sl) => {
    await assert.rejects(provider(s, sl).complete(request(), signal()), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.match(e.message, /401/);
      assert.match(e.message, /invalid x-api-key/);
      assert.match(e.message, /check your API key/i);
      assert.match(e.message, /ANTHROPIC_API_KEY/);
      return true;
    });
    assert.equal(s.requests.length, 1);
    assert.deepEqual(sl.delays, []);
  });
});

test('retries run out: ModelError after maxAttempts, naming the attempts', async () => {
  const err: Answer = { kind: 'status', status: 503, body: { type: 'error', error: { type: 'api_error', message: 'unavailable' } } };
  await withServer([err, err, err], async (s, sl) => {
    await assert.rejects(
      provider(s, sl, { retry: { sleep: sl.sleep, maxAttempts: 3 } }).complete(request(), signal()),
      /HTTP 503 after 3 attempts: unavailable/,
    );
    assert.equal(s.requests.length, 3);
  });
});

test('an attempt that receives nothing times out, is retried, then fails as a ModelError', async () => {
  await withServer([{ kind: 'hang' }, { kind: 'hang' }], async (s, sl) => {
    const p = provider(s, sl, { timeoutMs: 300, retry: { sleep: sl.sleep, maxAttempts: 2 } });
    await assert.rejects(p.complete(request(), signal()), (e: unknown) => e instanceof ModelError && /did not answer after 2 attempts/.test(e.message));
    assert.equal(s.requests.length, 2);
  });
});

test('abort during a streamed request rejects promptly with an AbortError and leaves nothing open', async () => {
  await withServer([{ kind: 'hang' }], async (s, sl) => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const ac = new AbortController();
    const pending = provider(s, sl).complete(request(), ac.signal);
    await s.arrived(1);
    ac.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof Error && e.name === 'AbortError');
    await s.closed(1); // the client closed its connection
    assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, timersBefore);
    assert.equal(s.requests.length, 1);
    assert.deepEqual(sl.delays, []);
  });
});

test('a non-streaming server (application/json) is read as one message', async () => {
  const body = {
    id: 'msg_2',
    model: 'claude-haiku-4-5',
    content: [
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_j', name: 'read_file', input: { path: 'x.js' } },
    ],
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  await withServer([{ kind: 'json', body }], async (s, sl) => {
    const reply = await provider(s, sl).complete(request(), signal());
    assert.equal(reply.text, 'Looking.');
    assert.deepEqual(reply.calls, [{ id: 'toolu_j', name: 'read_file', args: '{"path":"x.js"}' }]);
    assert.deepEqual(reply.usage, {
      inputTokens: 10,
      outputTokens: 5,
      dollars: new PriceTable().dollars('claude-haiku-4-5', { inputTokens: 10, outputTokens: 5 }),
    });
    assert.ok(reply.usage.dollars > 0);
  });
});

test('stop reasons: a reply cut by max_tokens comes back truncated, streamed and not; a whole one does not', async () => {
  const cut = anthropicFrames([{ text: ['The crash is in'] }], undefined, { stopReason: 'max_tokens' });
  const whole = anthropicFrames([{ tool: { id: 'toolu_1', name: 'read_file', parts: ['{"path":"a.js"}'] } }]);
  const cutJson = {
    id: 'msg_3',
    model: 'claude-haiku-4-5',
    content: [{ type: 'text', text: 'The crash is in' }],
    stop_reason: 'max_tokens',
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  const wholeJson = { ...cutJson, content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' };
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
      assert.equal(streamedCut.stopReason, 'max_tokens');
      assert.equal(streamedCut.truncated, true);
      const streamedWhole = await p.complete(request(), signal());
      assert.equal(streamedWhole.stopReason, 'tool_use');
      assert.equal('truncated' in streamedWhole, false);
      const plain = provider(s, sl, { stream: false });
      const jsonCut = await plain.complete(request(), signal());
      assert.equal(jsonCut.stopReason, 'max_tokens');
      assert.equal(jsonCut.truncated, true);
      assert.equal(s.requests[2].body.stream, false);
      const jsonWhole = await plain.complete(request(), signal());
      assert.equal(jsonWhole.stopReason, 'end_turn');
      assert.equal('truncated' in jsonWhole, false);
    },
  );
});
