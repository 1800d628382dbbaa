import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, DEFAULT_MODELS } from '../../src/model/factory';
import { BadInputError } from '../../src/core/errors';
import { AnthropicProvider } from '../../src/model/anthropic';
import { OpenAIProvider } from '../../src/model/openai';
import { RecordedModel } from '../../src/model/recorded-provider';
import { startServer } from './support/fake-server';
import { anthropicFrames, openaiFrames, request } from './support/wire';

test('anthropic: key and base URL from the environment, default model', async () => {
  const s = await startServer([{ kind: 'sse', frames: anthropicFrames([{ text: ['hi'] }]) }]);
  try {
    const p = createProvider({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: s.url });
    assert.ok(p instanceof AnthropicProvider);
    assert.equal(p.model, DEFAULT_MODELS.anthropic);
    assert.equal((await p.complete(request(), new AbortController().signal)).text, 'hi');
    assert.equal(s.requests[0].headers['x-api-key'], 'env-key');
  } finally {
    await s.close();
  }
});

test('openai: an explicit key and base URL win over the environment', async () => {
  const s = await startServer([{ kind: 'sse', frames: openaiFrames([{ text: 'yo' }]) }]);
  try {
    const p = createProvider(
      { provider: 'openai', apiKey: 'mine', baseUrl: `${s.url}/v1`, model: 'gpt-4o' },
      { OPENAI_API_KEY: 'env', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    );
    assert.ok(p instanceof OpenAIProvider);
    assert.equal(p.model, 'gpt-4o');
    assert.equal((await p.complete(request(), new AbortController().signal)).text, 'yo');
    assert.equal(s.requests[0].headers.authorization, 'Bearer mine');
  } finally {
    await s.close();
  }
});

test('missing keys: a BadInputError naming the variable and the Set API Key command', () => {
  assert.throws(
    () => createProvider({ provider: 'anthropic' }, {}),
    (e: unknown) => e instanceof BadInputError && /ANTHROPIC_API_KEY/.test(e.message) && /Set API Key/.test(e.message),
  );
  assert.throws(
    () => createProvider({ provider: 'openai' }, {}),
    (e: unknown) => e instanceof BadInputError && /OPENAI_API_KEY/.test(e.message) && /Set API Key/.test(e.message),
  );
});

test('openai: a local server needs no key', () => {
  const p = createProvider({ provider: 'openai', model: 'llama3.1' }, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
  assert.equal(p.provider, 'openai');
  assert.equal(p.model, 'llama3.1');
});

test('recorded: needs a recording, and replays it', () => {
  assert.throws(() => createProvider({ provider: 'recorded' }, {}), BadInputError);
  const p = createProvider({ provider: 'recorded', recording: { version: 1, task: 't', model: 'claude-sonnet-4-5', system: 's', prompt: 'p', turns: [] } }, {});
  assert.ok(p instanceof RecordedModel);
  assert.equal(p.model, 'claude-sonnet-4-5');
});

test('an unknown provider name is a BadInputError', () => {
  assert.throws(() => createProvider({ provider: 'gemini' as 'openai' }, {}), /Unknown model provider "gemini"/);
});
