// The key and base-URL rules, written once (issue #19 item 6): the CLI's factory, the editor and the job all ask provider-config.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyFor, baseUrlFor, baseUrlOption, chosenBaseUrl, needsKey, savedBaseUrl, savedBaseUrlFrom } from '../../src/model/provider-config';
import { BadBaseUrlError } from '../../src/model/base-url';
import { AnthropicProvider } from '../../src/model/anthropic';
import { OpenAIProvider } from '../../src/model/openai';

const refused = (source: RegExp) => (e: unknown) => e instanceof BadBaseUrlError && source.test(e.message) && !/hunter2/.test(e.message);

test('base URL: the chosen one, else the environment, else the public API; each checked and named by where it came from', () => {
  assert.equal(baseUrlFor('anthropic', undefined, {}), 'https://api.anthropic.com');
  assert.equal(baseUrlFor('openai', {}, {}), 'https://api.openai.com/v1');
  assert.equal(baseUrlFor('openai', undefined, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', ANTHROPIC_BASE_URL: 'http://x' }), 'http://127.0.0.1:11434/v1');
  assert.equal(baseUrlFor('anthropic', { baseUrl: 'http://mine' }, { ANTHROPIC_BASE_URL: 'http://env' }), 'http://mine');
  assert.throws(() => baseUrlFor('openai', undefined, { OPENAI_BASE_URL: 'http://u:hunter2@h/v1' }), refused(/^OPENAI_BASE_URL /));
  assert.throws(() => baseUrlFor('anthropic', { baseUrl: 'http://u:hunter2@h' }, {}), refused(/^The model base URL /));
  assert.throws(() => baseUrlFor('anthropic', { baseUrl: 'http://u:hunter2@h', baseUrlFrom: '--base-url' }, {}), refused(/^--base-url /));
  assert.equal(chosenBaseUrl(undefined), undefined);
  assert.equal(chosenBaseUrl({ baseUrl: '' }), undefined);
});

test('key: the given one, else the environment; Anthropic always needs one, an OpenAI-compatible server only at OpenAI', () => {
  assert.equal(apiKeyFor('anthropic', 'mine', { ANTHROPIC_API_KEY: 'env' }), 'mine');
  assert.equal(apiKeyFor('anthropic', '', { ANTHROPIC_API_KEY: 'env' }), 'env');
  assert.equal(apiKeyFor('openai', undefined, { ANTHROPIC_API_KEY: 'a' }), undefined);
  assert.equal(needsKey('anthropic', 'http://127.0.0.1:8080'), true);
  assert.equal(needsKey('openai', 'https://api.openai.com/v1'), true);
  assert.equal(needsKey('openai', 'http://127.0.0.1:11434/v1'), false);
  assert.equal(needsKey('openai', 'not a url'), false);
});

test("a run saves its chosen base URL and is resumed with it, named as the run's", () => {
  assert.deepEqual(baseUrlOption({ baseUrl: 'http://h/v1' }), { baseUrl: 'http://h/v1' });
  assert.deepEqual(baseUrlOption(undefined), {});
  assert.equal(savedBaseUrl({ baseUrl: 'http://h/v1' }), 'http://h/v1');
  assert.equal(savedBaseUrl({ baseUrl: '' }), undefined);
  assert.equal(savedBaseUrl(undefined), undefined);
  assert.equal(savedBaseUrlFrom('r1'), 'The base URL saved with run r1');
  assert.equal(savedBaseUrlFrom(), 'The base URL saved with this run');
});

test('a provider built without a base URL takes the environment’s only after the same check', (t) => {
  const before = { a: process.env.ANTHROPIC_BASE_URL, o: process.env.OPENAI_BASE_URL };
  t.after(() => {
    for (const [k, v] of [
      ['ANTHROPIC_BASE_URL', before.a],
      ['OPENAI_BASE_URL', before.o],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  process.env.ANTHROPIC_BASE_URL = 'http://u:hunter2@127.0.0.1:1';
  process.env.OPENAI_BASE_URL = 'http://u:hunter2@127.0.0.1:1/v1';
  assert.throws(() => new AnthropicProvider({ apiKey: 'k', model: 'm' }), refused(/^ANTHROPIC_BASE_URL /));
  assert.throws(() => new OpenAIProvider({ model: 'm' }), refused(/^OPENAI_BASE_URL /));
});
