// No PostgreSQL server needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasUserinfoPassword, redactUrl, secretParams } from '../../src/store/store-url';
import { checkStoreSetting, readSettings } from '../../src/extension/logic/settings';
import { triage } from '../cli/support';

test('redactUrl hides the userinfo password and every password-like query value, and keeps the rest as written', () => {
  assert.equal(redactUrl('postgres://triage:secret@db:5432/t'), 'postgres://triage:***@db:5432/t');
  assert.equal(redactUrl('postgres://triage@db/t?password=secret'), 'postgres://triage@db/t?password=***');
  assert.equal(
    redactUrl('postgres://triage@db/t?sslmode=verify-full&sslrootcert=/etc/ca.pem&sslpassword=k3y&PassWord=s&x=1'),
    'postgres://triage@db/t?sslmode=verify-full&sslrootcert=/etc/ca.pem&sslpassword=***&PassWord=***&x=1',
  );
  assert.equal(redactUrl('postgres://u:p@db/t?pass%77ord=s'), 'postgres://u:***@db/t?pass%77ord=***');
  assert.equal(redactUrl('postgres://db/t'), 'postgres://db/t');
  // Not a parseable URL: still redacted.
  assert.equal(redactUrl('postgres://u:sec ret@[bad/t?password=x'), 'postgres://u:***@[bad/t?password=***');
  for (const u of ['postgres://a:secret@h/d?password=secret', 'postgresql://h/d?sslpassword=secret&password=secret'])
    assert.doesNotMatch(redactUrl(u), /secret/);
});

test('secretParams and hasUserinfoPassword find where a URL holds a password', () => {
  assert.deepEqual(secretParams('postgres://h/d?sslmode=require&password=x&sslpassword=y'), ['password', 'sslpassword']);
  assert.deepEqual(secretParams('postgres://h/d?sslmode=require'), []);
  assert.deepEqual(secretParams('postgres://h/d'), []);
  assert.equal(hasUserinfoPassword('postgres://u:p@h/d'), true);
  assert.equal(hasUserinfoPassword('postgres://u@h:5432/d'), false);
  assert.equal(hasUserinfoPassword('postgres://h:5432/d?a=b@c'), false);
});

test('the store setting refuses a password in the query string as in the userinfo, and never repeats it', () => {
  assert.deepEqual(checkStoreSetting('postgres://triage@db/t?sslmode=verify-full'), { ok: true });
  for (const [url, where] of [
    ['postgres://triage:secret@db/t', 'user:password@'],
    ['postgres://triage@db/t?password=secret', '?password='],
    ['postgres://triage@db/t?sslmode=require&sslpassword=secret', '?sslpassword='],
  ] as const) {
    const r = checkStoreSetting(url);
    assert.equal(r.ok, false, url);
    if (r.ok) continue;
    assert.ok(r.why.includes(where), r.why);
    assert.doesNotMatch(r.why, /secret/);
    const s = readSettings((k) => (k === 'store' ? url : undefined));
    assert.equal(s.settings.store, undefined, 'the local state folder is used');
    assert.ok(
      s.problems.some((p) => p.startsWith('durableTriage.store holds a password')),
      JSON.stringify(s.problems),
    );
    assert.doesNotMatch(s.problems.join(' '), /secret/);
  }
  const notPg = checkStoreSetting('mysql://u:secret@h/d');
  assert.ok(!notPg.ok && !notPg.why.includes('secret'), JSON.stringify(notPg));
});

test('a store out of reach (exit 12) is named without a password given in the query string', () => {
  const r = triage(['status', '--store', 'postgres://triage@127.0.0.1:9/nowhere?sslmode=disable&password=secret&sslpassword=secret']);
  assert.equal(r.status, 12, r.stderr);
  assert.match(r.stderr, /postgres:\/\/triage@127\.0\.0\.1:9\/nowhere\?sslmode=disable&password=\*\*\*&sslpassword=\*\*\* cannot be used/);
  assert.doesNotMatch(r.stderr + r.stdout, /secret/);
});
