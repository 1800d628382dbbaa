/**
 * tools/pg/local-server.ts's hand-over of a tier's one server (TRIAGE_TEST_PG_SERVER): the
 * address is taken as given, the test process never stops a server it does not own, and a
 * malformed or stale value is an error naming the variable (no server is started here).
 */
import * as fs from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localPgFromEnv, SHARED_ENV } from '../../tools/pg/local-server';
import { tempDir } from '../support/temp-dir';

test('no variable: no shared server (the process starts its own)', () => {
  assert.equal(localPgFromEnv({}), undefined);
});

test("the tier's server is used as named, and stopping it from a test process does nothing", (t) => {
  const dir = tempDir(t);
  const at = { url: `postgres://triage@/postgres?host=${encodeURIComponent(dir)}&port=21234`, socketDir: dir, port: 21234 };
  const pg = localPgFromEnv({ [SHARED_ENV]: JSON.stringify(at) });
  assert.ok(pg);
  assert.equal(pg.url, at.url);
  assert.equal(pg.socketDir, dir);
  assert.equal(pg.port, 21234);
  pg.stop();
  assert.ok(fs.existsSync(dir), "the runner's folder is left alone");
});

test('a malformed value names the variable and what it must hold', () => {
  assert.throws(() => localPgFromEnv({ [SHARED_ENV]: '{not json' }), new RegExp(`${SHARED_ENV} is not JSON of \\{url, socketDir, port\\}`));
  assert.throws(() => localPgFromEnv({ [SHARED_ENV]: JSON.stringify({ url: 'x' }) }), new RegExp(`${SHARED_ENV} must be JSON of`));
});

test('a server whose folder is gone is named as such, not connected to and timed out on', () => {
  const at = { url: 'postgres://triage@/postgres?host=%2Fnowhere&port=1', socketDir: '/nowhere/triage-pg-gone', port: 1 };
  assert.throws(() => localPgFromEnv({ [SHARED_ENV]: JSON.stringify(at) }), /folder \/nowhere\/triage-pg-gone is gone/);
});
