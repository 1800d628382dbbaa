/**
 * A test that prints its environment shows none of this process's secrets: through a configured
 * test command and through a detected runner (node:test), the way run_tests runs them.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runWorkspaceTests } from '../../src/runners/run';
import { formatTestRun } from '../../src/tools/run-tests';
import { tempDir } from '../support/temp-dir';

const FAKE: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-fake-anthropic-1111',
  OPENAI_API_KEY: 'sk-fake-openai-2222',
  GITHUB_TOKEN: 'ghp_fake-github-3333',
  PGPASSWORD: 'fake-pg-password-4444',
  SENTRY_AUTH_TOKEN: 'fake-sentry-5555',
  MY_SERVICE_SECRET: 'fake-service-6666',
  DATABASE_URL: 'postgres://app:fake-db-password-7777@db.example/app',
};
const MARKER = { TRIAGE_TEST_VISIBLE: 'visible-marker-8888' };

/** Sets the fake secrets (and a harmless marker) in this process's environment until the test ends. */
function withFakeSecrets(t: TestContext): void {
  const saved = new Map(Object.keys({ ...FAKE, ...MARKER }).map((k) => [k, process.env[k]]));
  Object.assign(process.env, FAKE, MARKER);
  t.after(() => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

function workspace(t: TestContext, files: Record<string, string>): string {
  const dir = tempDir(t, 'triage-secrets-');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"w","private":true}\n');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function assertNoSecret(seen: string): void {
  assert.ok(seen.includes(MARKER.TRIAGE_TEST_VISIBLE), `the environment was printed:\n${seen.slice(0, 2000)}`);
  for (const [name, value] of Object.entries(FAKE)) {
    assert.ok(!seen.includes(value), `${name}'s value reached the test's output`);
    assert.ok(!new RegExp(`\\b${name}\\b`).test(seen), `${name} reached the test's output`);
  }
}

test('a configured test command that prints its environment sees no secret', async (t) => {
  withFakeSecrets(t);
  const dir = workspace(t, {});
  const { plan, run } = await runWorkspaceTests(dir, undefined, { command: 'env; exit 1' });
  assert.equal(plan.kind, 'command');
  assertNoSecret(`${run.output}\n${run.details.join('\n')}`);
});

test('a node:test test that prints its environment sees no secret', async (t) => {
  withFakeSecrets(t);
  const dir = workspace(t, {
    'test/env.test.js':
      "const { test } = require('node:test');\ntest('env', () => { console.log(JSON.stringify(process.env)); throw new Error(JSON.stringify(process.env)); });\n",
  });
  const { plan, run } = await runWorkspaceTests(dir, undefined);
  assert.equal(plan.kind, 'node');
  assert.equal(run.failed, 1, formatTestRun(run, plan));
  assertNoSecret(`${run.output}\n${run.details.join('\n')}`);
});
