/**
 * `triage run --crashes sentry:acme/api --tracker github:acme/api` end to end through the CLI,
 * killed by SIGKILL right after sentry_comment posts its comment (before its result is saved),
 * then run again: the GitHub issue links the Sentry issue, and the Sentry issue has exactly one
 * comment linking the GitHub issue (the ladder's lookup found it by its marker); the token
 * (SENTRY_AUTH_TOKEN, from the environment in every life) is in no file.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN, lastJson, triage } from './support';
import { startServer, type Answer } from '../model/support/fake-server';
import { anthropicFrames } from '../model/support/wire';
import { startSentryStandin } from '../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../support/sentry-issues';
import { tempDir } from '../support/temp-dir';
import { startGitHubStandin } from '../support/github-standin';
import { readMarker } from '../../src/tracker/github/marker';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'repos', 'node');
const TOKEN = 'sntrys_comment_test_SECRET_do_not_save_me';
const CAUSE = 'parse-duration-type-error';

function turn(id: number, name: string, args: Record<string, unknown>): Answer {
  return { kind: 'sse', frames: anthropicFrames([{ tool: { id: `toolu_${id}`, name, parts: [JSON.stringify(args)] } }]) };
}

function life(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
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

test('killed right after the Sentry comment is posted: after the rerun, one comment linking the GitHub issue, which links the Sentry issue', async (t: TestContext) => {
  const ws = tempDir(t, 'triage-sentry-comment-ws-');
  fs.cpSync(FIXTURE, ws, { recursive: true });
  fs.rmSync(path.join(ws, 'crashes'), { recursive: true, force: true });
  const state = tempDir(t, 'triage-sentry-comment-state-');
  const sentry = await startSentryStandin({ org: 'acme', project: 'api', issues: NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), token: TOKEN });
  t.after(() => sentry.close());
  const gh = await startGitHubStandin({ repos: ['acme/api'], prefix: '/api/v3' });
  t.after(() => gh.close());
  const script: Answer[] = [
    turn(1, 'issue_file', { title: 'parseDuration crashes on an unknown unit', body: 'What broke and the fix.', cause: CAUSE }),
    turn(2, 'sentry_comment', { cause: CAUSE }),
    { kind: 'sse', frames: anthropicFrames([{ text: ['Filed #1 and commented on Sentry.'] }]) },
  ];
  const model = await startServer(script);
  t.after(() => model.close());
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
    '1',
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
    'sentry_comment',
    '--json',
  ];
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', SENTRY_AUTH_TOKEN: TOKEN, GITHUB_TOKEN: gh.token, GITHUB_API_URL: gh.url };
  const first = await life(args, env);
  assert.equal(first.signal, 'SIGKILL', first.stderr);
  assert.equal(sentry.comments('101').length, 1, 'the comment was posted before the kill');
  const second = await life(args, env);
  assert.equal(second.code, 0, second.stderr);
  const out = lastJson<{ runId: string; phase: string }>(second.stdout);
  assert.equal(out.phase, 'done');

  const [issue] = gh.issues('acme/api');
  assert.match(
    readMarker(issue.body)?.body ?? '',
    new RegExp(`What broke and the fix\\.\\n\\nSentry issue: \\[API-101\\]\\(${sentry.url}/organizations/acme/issues/101/\\)$`),
  );
  const comments = sentry.comments('101');
  assert.equal(comments.length, 1, 'one comment after the rerun');
  assert.ok(comments[0].text.includes(`- Issue #${issue.number}: parseDuration crashes on an unknown unit`), comments[0].text);
  assert.equal(readMarker(comments[0].text)?.marker.runId, out.runId);
  assert.equal(model.requests.length, script.length, 'every model reply was paid once');

  const shown = triage(['show', '--state', state, '--run', out.runId, '--transcript']);
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(
    shown.stdout,
    new RegExp(`Per cause:\\n  ${CAUSE}: Sentry API-101 ${sentry.url}/organizations/acme/issues/101/ \\(commented, \\d+\\) · issue #${issue.number}`),
  );
  assert.match(
    shown.stdout,
    /\n {4}» Ladder, rung 2 \(lookup\): "Comment on the Sentry issue \(parse-duration-type-error\)" had already happened; nothing repeated/,
    'the row of the cause says what the ladder decided after the restart',
  );
  for (const f of fs.readdirSync(state, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
    assert.ok(!fs.readFileSync(path.join(f.parentPath, f.name)).includes(TOKEN), `the token is not in ${f.name}`);
});
