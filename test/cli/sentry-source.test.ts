/**
 * `triage run --task crash-folder --crashes sentry:acme/api --sentry-url http://127.0.0.1:PORT`
 * end to end through the CLI: Sentry is a stand-in of its API (two pages of issues, a 429 with
 * Retry-After once, events with in-app frames), the model a scripted stand-in over Anthropic's
 * wire format. The run is killed right after each issue_file and run again until done; the
 * groups are fetched once, at the start, and saved with the run: the later lives ask Sentry
 * nothing (its issues changed meanwhile) and see the same groups. SENTRY_AUTH_TOKEN is in no
 * file of the state folder and in nothing printed. A bad token, an unknown project and an
 * unreachable Sentry stop before any run is made, each with its own exit status.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPatch } from 'diff';
import { BIN, lastJson, triage } from './support';
import { startServer, type Answer } from '../model/support/fake-server';
import { anthropicFrames, type AnthropicBlock } from '../model/support/wire';
import { startSentryStandin, type SentryStandin } from '../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../support/sentry-issues';
import { tempDir } from '../support/temp-dir';
import { startGitHubStandin } from '../support/github-standin';
import { testLayout } from '../../src/runners/layout';
import { readRun } from '../../src/store/files/checkpoint';
import { EXIT } from '../../src/cli/exitcodes';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'repos', 'node');
const TOKEN = 'sntrys_eyJpYXQiOjE3MzM0NTY3ODl9_SECRET_do_not_save_me';

type Call = [string, Record<string, unknown>];

function turn(id: number, calls: Call[], text?: string): Answer {
  const blocks: AnthropicBlock[] = [
    ...(text ? [{ text: [text] }] : []),
    ...calls.map(([name, args], k) => ({ tool: { id: `toolu_${id}_${k}`, name, parts: [JSON.stringify(args)] } })),
  ];
  return { kind: 'sse', frames: anthropicFrames(blocks) };
}

interface Life {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function life(args: string[], env: NodeJS.ProcessEnv): Promise<Life> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OPENAI_API_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function workspace(t: TestContext): string {
  const ws = tempDir(t, 'triage-sentry-cli-');
  fs.cpSync(FIXTURE, ws, { recursive: true });
  fs.rmSync(path.join(ws, 'crashes'), { recursive: true, force: true });
  return ws;
}

async function standin(t: TestContext): Promise<SentryStandin> {
  const s = await startSentryStandin({ org: 'acme', project: 'api', issues: NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), perPage: 1, token: TOKEN });
  t.after(() => s.close());
  return s;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

test('a run on a Sentry project: groups fetched once and saved, the same after kills and a changed Sentry; the token in no file', async (t) => {
  const ws = workspace(t);
  const state = tempDir(t, 'triage-sentry-state-');
  const sentry = await standin(t);
  sentry.script({
    match: '/projects/',
    status: 429,
    headers: { 'Retry-After': '1' },
    body: { detail: 'Request was throttled. Expected available in 1 second.' },
  });
  const layout = await testLayout(ws);
  const causes = ['parse-duration-type-error', 'total-type-error'];
  const tests = causes.map((c) => layout.regressionTest(c));
  const patch = (file: string, from: string, to: string): string => {
    const before = fs.readFileSync(path.join(ws, file), 'utf8');
    assert.ok(before.includes(from));
    return createPatch(file, before, before.replace(from, to));
  };
  const script: Answer[] = [
    turn(1, [
      ['read_file', { path: 'src/duration.js' }],
      ['read_file', { path: 'src/report.js' }],
    ]),
    turn(2, [
      [
        'write_file',
        {
          path: tests[0],
          content:
            "'use strict';\nconst { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { parseDuration } = require('../src/duration');\n\ntest('an unknown unit is a SyntaxError', () => {\n  assert.throws(() => parseDuration('5x'), SyntaxError);\n});\n",
        },
      ],
      [
        'code_patch',
        {
          path: 'src/duration.js',
          patch: patch(
            'src/duration.js',
            '  return Number(m[1]) * UNITS[m[2]].ms;\n',
            '  if (!UNITS[m[2]]) throw new SyntaxError(`unknown unit in ${text}`);\n  return Number(m[1]) * UNITS[m[2]].ms;\n',
          ),
        },
      ],
    ]),
    turn(3, [
      [
        'issue_file',
        { title: 'parseDuration crashes on an unknown unit', body: `Sentry: ${sentry.url}/organizations/acme/issues/101/. Fixed.`, cause: causes[0] },
      ],
      [
        'issue_file',
        { title: 'total crashes on an empty list', body: `Sentry: ${sentry.url}/organizations/acme/issues/102/. Not fixed yet.`, cause: causes[1] },
      ],
    ]),
    { kind: 'sse', frames: anthropicFrames([{ text: ['Filed #1 and #2.'] }]) },
  ];
  const model = await startServer(script);
  t.after(() => model.close());
  const gh = await startGitHubStandin({ repos: ['acme/api'], prefix: '/api/v3' });
  t.after(() => gh.close());

  const args = [
    'run',
    '--task',
    'crash-folder',
    '--workspace',
    ws,
    '--crashes',
    'sentry:acme/api',
    '--sentry-url',
    sentry.url,
    '--sentry-limit',
    '2',
    '--state',
    state,
    '--model',
    'anthropic',
    '--model-name',
    'claude-sonnet-4-5',
    '--base-url',
    model.url,
    '--tracker',
    'github:acme/api',
    '--approve',
    'yes',
    '--die-after',
    'issue_file',
    '--json',
  ];
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', SENTRY_AUTH_TOKEN: TOKEN, GITHUB_TOKEN: gh.token, GITHUB_API_URL: gh.url };
  const lives: Life[] = [];
  let askedAtStart = 0;
  for (let n = 0; n < 5; n++) {
    const l = await life(args, env);
    lives.push(l);
    if (n === 0) {
      askedAtStart = sentry.requests.length;
      // Sentry changes after the run started: a resumed run must not see it.
      sentry.issues = [{ ...NODE_FIXTURE_ISSUES[2], id: '999', count: 100000 }];
    }
    if (l.signal !== 'SIGKILL') break;
  }
  const seen = lives.map((l) => l.signal ?? `exit ${l.code}`).join(', ');
  const last = lives[lives.length - 1];
  assert.equal(last.code, 0, `${seen}: ${last.stderr}`);
  assert.deepEqual(
    lives.map((l) => l.signal ?? l.code),
    ['SIGKILL', 'SIGKILL', 0],
    seen,
  );

  // Fetched once, at the start: two pages (one issue each), after one 429; then each latest event.
  const first = sentry.requests.slice(0, askedAtStart).map((r) => r.path.replace(/\?.*$/, ''));
  assert.deepEqual(first, [
    '/api/0/projects/acme/api/issues/',
    '/api/0/projects/acme/api/issues/',
    '/api/0/projects/acme/api/issues/',
    '/api/0/organizations/acme/issues/101/events/latest/',
    '/api/0/organizations/acme/issues/102/events/latest/',
  ]);
  assert.equal(sentry.requests.length, askedAtStart, 'the resumed lives asked Sentry nothing');

  const out = lastJson<{ runId: string; phase: string; issues: { number: number; cause: string }[] }>(last.stdout);
  assert.equal(out.phase, 'done');
  assert.deepEqual(
    out.issues.map((i) => i.cause),
    causes,
  );
  const run = await readRun(state, out.runId);
  assert.deepEqual(
    run.config.crashGroups?.map((g) => [g.cause, g.sentry?.id, g.sentry?.count, g.frames?.[0]]),
    [
      [causes[0], '101', 1024, { file: 'src/duration.js', fn: 'parseDuration', line: 12 }],
      [causes[1], '102', 310, { file: 'src/report.js', fn: 'total', line: 4 }],
    ],
  );
  assert.equal(run.config.options?.crashes, 'sentry:acme/api');
  assert.equal(run.config.options?.sentryUrl, sentry.url);
  assert.equal(model.requests.length, script.length, 'every model reply was paid once');
  assert.equal(gh.issues('acme/api').length, 2, 'one GitHub issue per group');
  const prompt = JSON.stringify(model.requests[0].body);
  assert.ok(prompt.includes('Sentry issue API-101'), 'the prompt names the Sentry issue');
  assert.ok(prompt.includes('parseDuration (src/duration.js:12)'), 'and its stack in the workspace');
  assert.ok(!prompt.includes('999'), 'not what Sentry holds now');

  // The token is in no file of the state folder, and in nothing printed.
  const files = filesUnder(state);
  assert.ok(files.length > 3, `the state folder holds the run's files (${files.length})`);
  for (const f of files) assert.ok(!fs.readFileSync(f).includes(TOKEN), `the token is not in ${path.relative(state, f)}`);
  for (const f of filesUnder(ws).filter((x) => !x.includes('node_modules'))) assert.ok(!fs.readFileSync(f).includes(TOKEN), `nor in ${f}`);
  for (const l of lives) assert.ok(!l.stdout.includes(TOKEN) && !l.stderr.includes(TOKEN));
  const shown = triage(['show', '--state', state, '--run', out.runId, '--transcript']);
  assert.equal(shown.status, 0, shown.stderr);
  assert.ok(!shown.stdout.includes(TOKEN), 'nor in the transcript');
});

test('a bad token, an unknown project and an unreachable Sentry: exit 16, 17 and 18, before any run is made', async (t) => {
  const ws = workspace(t);
  const state = tempDir(t, 'triage-sentry-state-');
  const sentry = await standin(t);
  const closed = await startSentryStandin({ org: 'acme', project: 'api', issues: [] });
  const down = closed.url;
  await closed.close();
  // Spawned without waiting synchronously: the stand-in answers from this process.
  const run = (crashes: string, url: string, token: string | undefined): Promise<Life> =>
    life(
      [
        'run',
        '--task',
        'crash-folder',
        '--workspace',
        ws,
        '--crashes',
        crashes,
        '--sentry-url',
        url,
        '--state',
        state,
        '--model',
        'anthropic',
        '--base-url',
        'http://127.0.0.1:9',
      ],
      { ANTHROPIC_API_KEY: 'sk-ant-test', SENTRY_AUTH_TOKEN: token ?? '' },
    );
  const wrong = await run('sentry:acme/api', sentry.url, 'sntrys_wrong_token');
  assert.equal(wrong.code, EXIT.sentryAuth, wrong.stderr);
  assert.match(wrong.stderr, /rejected the token \(401\)/);
  assert.ok(!wrong.stderr.includes('sntrys_wrong_token'));
  const none = await run('sentry:acme/api', sentry.url, undefined);
  assert.equal(none.code, EXIT.sentryAuth, none.stderr);
  assert.match(none.stderr, /SENTRY_AUTH_TOKEN/);
  const unknown = await run('sentry:acme/nope', sentry.url, TOKEN);
  assert.equal(unknown.code, EXIT.sentryNotFound, unknown.stderr);
  assert.match(unknown.stderr, /404 for sentry:acme\/nope/);
  const unreachable = await run('sentry:acme/api', down, TOKEN);
  assert.equal(unreachable.code, EXIT.sentryUnavailable, unreachable.stderr);
  assert.match(unreachable.stderr, /could not be read/);
  const bad = await run('sentry:acme', sentry.url, TOKEN);
  assert.equal(bad.code, EXIT.badInput, bad.stderr);
  const status = triage(['status', '--state', state, '--json']);
  assert.equal(status.status, 0, status.stderr);
  assert.doesNotMatch(status.stdout, /crash-folder/, 'no run was made');
  // `triage group` shows the groups a run would start on.
  const g = await life(['group', '--crashes', 'sentry:acme/api', '--workspace', ws, '--sentry-url', sentry.url, '--sentry-limit', '2'], {
    SENTRY_AUTH_TOKEN: TOKEN,
  });
  assert.equal(g.code, 0, g.stderr);
  assert.match(g.stdout, /2 crash group\(s\) from the Sentry issues of acme\/api/);
  assert.match(g.stdout, /parse-duration-type-error {2}\(1024 events, 37 users\)\n {2}TypeError @ parseDuration \(src\/duration.js\)/);
  assert.match(g.stdout, /at parseDuration \(src\/duration.js:12\)/);
});
