/** A model base URL with a user name or password is refused at once, wherever it comes from, and never echoed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadBaseUrlError, baseUrlProblem, checkBaseUrl } from '../../src/model/base-url';
import { createProvider } from '../../src/model/factory';
import { BadInputError } from '../../src/core/errors';
import type { FetchFn } from '../../src/model/sdk';

const WITH_SECRET = 'http://alice:hunter2@127.0.0.1:11434/v1?token=t0ps3cret#frag';

function noSecret(e: unknown): asserts e is BadBaseUrlError {
  assert.ok(e instanceof BadBaseUrlError, String(e));
  assert.ok(e instanceof BadInputError, 'bad input: the CLI exits 2');
  assert.equal(e.code, 'bad-input');
  for (const s of ['alice', 'hunter2', 't0ps3cret']) assert.ok(!e.message.includes(s), `the message repeats "${s}": ${e.message}`);
}

test('usable base URLs pass unchanged', () => {
  for (const u of ['http://127.0.0.1:11434/v1', 'https://api.openai.com/v1', 'https://proxy.example/anthropic/']) {
    assert.equal(baseUrlProblem(u), undefined);
    assert.equal(checkBaseUrl(u, '--base-url'), u);
  }
});

test('user info, a non-http scheme or a non-URL is refused, naming the source and the fix, without the secret', () => {
  assert.throws(
    () => checkBaseUrl(WITH_SECRET, '--base-url'),
    (e: unknown) => {
      noSecret(e);
      assert.match(e.message, /^--base-url holds a user name or password \(http:\/\/\*\*\*@127\.0\.0\.1:11434\/v1\)/);
      assert.match(e.message, /OPENAI_API_KEY/);
      assert.match(e.message, /remove the "user:password@" part/);
      return true;
    },
  );
  assert.throws(
    () => checkBaseUrl('http://just-a-user@127.0.0.1/v1', 'X'),
    (e: unknown) => e instanceof BadBaseUrlError && /user name or password/.test(e.message),
  );
  assert.throws(
    () => checkBaseUrl('ftp://127.0.0.1/v1', 'X'),
    (e: unknown) => e instanceof BadBaseUrlError && /not an http:\/\/ or https:\/\/ URL/.test(e.message),
  );
  // Without a scheme, "user:secret@host" parses as the scheme "alice:": refused without showing any of it.
  assert.throws(
    () => checkBaseUrl('alice:hunter2@127.0.0.1:9/v1', 'X'),
    (e: unknown) => {
      noSecret(e);
      assert.match(e.message, /is not an http:\/\/ or https:\/\/ URL/);
      return true;
    },
  );
  assert.throws(
    () => checkBaseUrl('hunter2 at localhost', 'X'),
    (e: unknown) => {
      noSecret(e);
      assert.match(e.message, /is not a URL/);
      return true;
    },
  );
});

test('the factory refuses a base URL with user info from the choice or the environment, before any call', () => {
  const calls: string[] = [];
  const fetch: FetchFn = async (input) => {
    calls.push(String(input));
    throw new Error('no call may be made');
  };
  for (const provider of ['anthropic', 'openai'] as const) {
    assert.throws(
      () => createProvider({ provider, apiKey: 'k', baseUrl: WITH_SECRET, baseUrlFrom: '--base-url', fetch }, {}),
      (e: unknown) => {
        noSecret(e);
        assert.match(e.message, /^--base-url /);
        return true;
      },
    );
    assert.throws(
      () => createProvider({ provider, apiKey: 'k', baseUrl: WITH_SECRET, fetch }, {}),
      (e: unknown) => {
        noSecret(e);
        assert.match(e.message, /^The model base URL /);
        return true;
      },
    );
    const variable = provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL';
    assert.throws(
      () => createProvider({ provider, apiKey: 'k', fetch }, { [variable]: WITH_SECRET }),
      (e: unknown) => {
        noSecret(e);
        assert.match(e.message, new RegExp(`^${variable} holds a user name or password`));
        return true;
      },
    );
  }
  assert.deepEqual(calls, []);
  // The choice's usable URL wins over a bad one in the environment, as before.
  assert.equal(createProvider({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }, { OPENAI_BASE_URL: WITH_SECRET }).provider, 'openai');
});
