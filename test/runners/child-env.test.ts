/** The rule that keeps this process's secrets out of a test child's environment. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretVariable, runnerEnv, SECRET_VARIABLES, withoutSecrets } from '../../src/runners/child-env';

test('the secrets Durable Triage reads are named, and each is dropped', () => {
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_ADMIN_KEY', 'GITHUB_TOKEN', 'PGPASSWORD', 'SENTRY_AUTH_TOKEN']) {
    assert.ok(SECRET_VARIABLES.includes(name), name);
    assert.equal(isSecretVariable(name, 'x'), true, name);
  }
});

test('secret-looking names are dropped whatever their case', () => {
  const secret = [
    'MY_SERVICE_TOKEN',
    'stripe_secret',
    'AWS_ACCESS_KEY_ID',
    'GCP_CREDENTIALS',
    'Db_Password',
    'MYSQL_ROOT_PASSWORD',
    'DB_PASS',
    'GITHUB_PAT',
    'SSH_PASSPHRASE',
    'npm_config__authToken',
    'OPENAI_APIKEY',
    'TOKEN',
    'secret',
    'APP_SECRETS',
    'SECRET_KEY_BASE',
  ];
  for (const name of secret) assert.equal(isSecretVariable(name, 'x'), true, name);
});

test('everyday variables are kept', () => {
  const kept = [
    'PATH',
    'HOME',
    'LANG',
    'TERM',
    'NODE_ENV',
    'CI',
    'GOPATH',
    'TOKENIZERS_PARALLELISM',
    'KEYBOARD_LAYOUT',
    'PASSAGE',
    'COMPASS_HOME',
    'GIT_ASKPASS',
    'PGHOST',
    'PGUSER',
    'PGDATABASE',
    'DATABASE_URL',
    'HTTP_PROXY',
  ];
  for (const name of kept) assert.equal(isSecretVariable(name, 'x'), false, name);
});

test('a URL with a password in it is dropped whatever its name; one without is kept', () => {
  assert.equal(isSecretVariable('DATABASE_URL', 'postgres://app:hunter2@db.example:5432/app'), true);
  assert.equal(isSecretVariable('HTTPS_PROXY', 'http://me:pw@proxy:3128'), true);
  assert.equal(isSecretVariable('TEST_PG', 'postgresql://u:p@localhost/t?sslmode=disable'), true);
  assert.equal(isSecretVariable('DATABASE_URL', 'postgres://app@db.example/app'), false);
  assert.equal(isSecretVariable('HTTPS_PROXY', 'http://proxy:3128'), false);
  assert.equal(isSecretVariable('NOTE', 'mail me at a@b.c'), false);
});

test('withoutSecrets copies the rest unchanged and leaves its input alone; runnerEnv adds no colours', () => {
  const env = { PATH: '/bin', GITHUB_TOKEN: 'ghp_x', DATABASE_URL: 'postgres://u:pw@h/d', NODE_OPTIONS: '--inspect', NODE_TEST_CONTEXT: 'child', LANG: 'C' };
  const before = { ...env };
  assert.deepEqual(withoutSecrets(env), { PATH: '/bin', NODE_OPTIONS: '--inspect', NODE_TEST_CONTEXT: 'child', LANG: 'C' });
  assert.deepEqual(env, before);
  assert.deepEqual(runnerEnv(env), { PATH: '/bin', LANG: 'C', NO_COLOR: '1', FORCE_COLOR: '0' });
});
