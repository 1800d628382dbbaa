import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSettings, DEFAULT_MAX_RESTARTS } from '../../src/extension/logic/settings';
import { DEFAULT_LIMITS } from '../../src/agent/budget';

const from = (o: Record<string, unknown>) => (k: string) => o[k];

test('defaults: the default turns and dollars (DEFAULT_LIMITS), 10 restarts, issue_file and pull_request asked, recorded model, keys on', () => {
  const { settings, problems } = readSettings(from({}));
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, {
    stateDirectory: '',
    limits: { maxRestarts: DEFAULT_MAX_RESTARTS, maxTurns: 100, maxDollars: 5 },
    approvalTools: ['issue_file', 'pull_request'],
    provider: 'recorded',
    keys: true,
    prices: {},
  });
  assert.equal(DEFAULT_MAX_RESTARTS, 10);
  assert.deepEqual(DEFAULT_LIMITS, { maxTurns: 100, maxDollars: 5 });
});

test('settings map onto the run options; 0 means no limit', () => {
  const { settings, problems } = readSettings(
    from({
      stateDirectory: ' /tmp/state ',
      'budget.maxTurns': 40.7,
      'budget.maxDollars': 0,
      'budget.maxTokens': 500000,
      maxRestarts: 3,
      'approval.tools': ['issue_file', ' code_patch ', ''],
      'model.provider': 'openai',
      'model.name': 'qwen2.5',
      'model.baseUrl': 'http://127.0.0.1:11434/v1',
      keys: false,
      prices: { qwen: { input: 0, output: 0 } },
      'debug.dieAfterTool': 'code_patch',
    }),
  );
  assert.deepEqual(problems, []);
  assert.equal(settings.stateDirectory, '/tmp/state');
  assert.deepEqual(settings.limits, { maxTurns: 40, maxDollars: Infinity, maxTokens: 500000, maxRestarts: 3 });
  assert.deepEqual(settings.approvalTools, ['issue_file', 'code_patch']);
  assert.equal(settings.provider, 'openai');
  assert.equal(settings.modelName, 'qwen2.5');
  assert.equal(settings.baseUrl, 'http://127.0.0.1:11434/v1');
  assert.equal(settings.keys, false);
  assert.deepEqual(settings.prices, { qwen: { input: 0, output: 0 } });
  assert.equal(settings.dieAfterTool, 'code_patch');
});

test('unusable values fall back to the default and are reported by name', () => {
  const { settings, problems } = readSettings(
    from({
      'budget.maxTurns': -1,
      'budget.maxDollars': '5',
      maxRestarts: 2.5,
      'approval.tools': 'issue_file',
      'model.provider': 'gpt',
      'model.baseUrl': 'not a url',
      keys: 'yes',
      prices: { good: { input: 1, output: 2 }, bad: { input: 1 } },
    }),
  );
  assert.deepEqual(settings.limits, { maxRestarts: 10, ...DEFAULT_LIMITS });
  assert.deepEqual(settings.approvalTools, ['issue_file', 'pull_request']);
  assert.equal(settings.provider, 'recorded');
  assert.equal(settings.baseUrl, undefined);
  assert.equal(settings.keys, true);
  assert.deepEqual(settings.prices, { good: { input: 1, output: 2 } });
  for (const key of ['budget.maxTurns', 'budget.maxDollars', 'maxRestarts', 'approval.tools', 'model.provider', 'model.baseUrl', 'keys', 'prices["bad"]']) {
    assert.ok(
      problems.some((p) => p.startsWith(`durableTriage.${key} `)),
      `a problem names ${key}: ${JSON.stringify(problems)}`,
    );
  }
});

test('empty strings are unset, not empty values', () => {
  const { settings } = readSettings(from({ 'model.name': '  ', 'model.baseUrl': '', 'debug.dieAfterTool': '' }));
  assert.equal('modelName' in settings, false);
  assert.equal('baseUrl' in settings, false);
  assert.equal('dieAfterTool' in settings, false);
});

test('a model base URL with a user name or password is reported without the secret and not used', () => {
  const { settings, problems } = readSettings(from({ 'model.provider': 'openai', 'model.baseUrl': 'http://alice:hunter2@127.0.0.1:11434/v1' }));
  assert.equal(settings.baseUrl, undefined);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^durableTriage\.model\.baseUrl holds a user name or password \(http:\/\/\*\*\*@127\.0\.0\.1:11434\/v1\)/);
  assert.ok(!/alice|hunter2/.test(problems[0]), problems[0]);
});

test('the Sentry settings: a project makes it a crash source with its URL, query and limit; a bad one is reported and not offered', () => {
  assert.equal(readSettings(from({})).settings.sentry, undefined);
  assert.deepEqual(readSettings(from({ 'crashes.sentry': 'acme/api' })).settings.sentry, {
    crashes: 'sentry:acme/api',
    baseUrl: 'https://sentry.io',
    query: 'is:unresolved',
    limit: 10,
  });
  assert.deepEqual(
    readSettings(
      from({
        'crashes.sentry': ' acme/api ',
        'crashes.sentryUrl': 'https://glitchtip.example.com/',
        'crashes.sentryQuery': 'is:unresolved level:error',
        'crashes.sentryLimit': 3,
      }),
    ).settings.sentry,
    { crashes: 'sentry:acme/api', baseUrl: 'https://glitchtip.example.com', query: 'is:unresolved level:error', limit: 3 },
  );
  for (const bad of [
    { 'crashes.sentry': 'acme' },
    { 'crashes.sentry': 'acme/api', 'crashes.sentryUrl': 'https://me:pw@sentry.io' },
    { 'crashes.sentry': 'acme/api', 'crashes.sentryLimit': 0 },
  ]) {
    const r = readSettings(from(bad));
    assert.equal(r.settings.sentry, undefined, JSON.stringify(bad));
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /^durableTriage\.crashes\.sentry\*: .*not offered/);
    assert.ok(!r.problems[0].includes(':pw@'));
  }
});

test('pull requests: off unless durableTriage.pullRequests.enabled; base and remote as given, drafts by default', () => {
  assert.equal(readSettings(from({})).settings.pullRequests, undefined);
  assert.equal(readSettings(from({ 'pullRequests.enabled': false, 'pullRequests.base': 'main' })).settings.pullRequests, undefined);
  const deps = { mode: 'install', scripts: false, network: 'cache-first' };
  assert.deepEqual(readSettings(from({ 'pullRequests.enabled': true })).settings.pullRequests, { draft: true, deps });
  assert.deepEqual(
    readSettings(from({ 'pullRequests.enabled': true, 'pullRequests.base': ' release ', 'pullRequests.remote': 'upstream', 'pullRequests.draft': false }))
      .settings.pullRequests,
    { base: 'release', remote: 'upstream', draft: false, deps },
  );
  assert.deepEqual(
    readSettings(
      from({ 'pullRequests.enabled': true, 'pullRequests.dependencies': 'reuse', 'pullRequests.lifecycleScripts': true, 'pullRequests.network': 'offline' }),
    ).settings.pullRequests?.deps,
    { mode: 'reuse', scripts: true, network: 'offline' },
  );
  const badDeps = readSettings(from({ 'pullRequests.enabled': true, 'pullRequests.dependencies': 'yarn', 'pullRequests.network': 'never' }));
  assert.deepEqual(badDeps.settings.pullRequests?.deps, deps, 'a bad value leaves the default');
  assert.deepEqual(badDeps.problems.sort(), [
    'durableTriage.pullRequests.dependencies should be "install", "copy", "reuse" or "off", not "yarn"; using the default.',
    'durableTriage.pullRequests.network should be "cache-first", "offline" or "allowed", not "never"; using the default.',
  ]);
  const bad = readSettings(from({ 'pullRequests.enabled': 'yes', 'pullRequests.draft': 'no' }));
  assert.equal(bad.settings.pullRequests, undefined, 'a value that is not true leaves pull requests off');
  assert.deepEqual(bad.problems.sort(), [
    'durableTriage.pullRequests.draft should be true or false, not "no"; using the default.',
    'durableTriage.pullRequests.enabled should be true or false, not "yes"; using the default.',
  ]);
});

test('durableTriage.mcp.servers: the servers object as written (checked when a run starts); empty is none; not an object is reported', () => {
  const servers = { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } };
  assert.deepEqual(readSettings(from({ 'mcp.servers': servers })).settings.mcpServers, servers);
  assert.equal(readSettings(from({ 'mcp.servers': {} })).settings.mcpServers, undefined);
  const bad = readSettings(from({ 'mcp.servers': ['memory'] }));
  assert.equal(bad.settings.mcpServers, undefined);
  assert.match(bad.problems.join('\n'), /durableTriage\.mcp\.servers should be an object of server name to server/);
});
