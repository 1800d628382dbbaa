import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { TrackerStore, ISSUES_FILE, DEFAULT_RETENTION_MS } from '../../src/tracker/store';
import { KeyReusedError, TrackerStoreCorruptError } from '../../src/tracker/errors';
import { acquireRunLock, lockPathOf } from '../../src/disk/lock';
import { io, useIo } from '../../src/disk/io';
import { tempDir } from '../support/temp-dir';

async function open(t: TestContext, dir: string, o: Parameters<typeof TrackerStore.open>[1] = {}): Promise<TrackerStore> {
  const s = await TrackerStore.open(dir, o);
  t.after(() => s.close());
  return s;
}

const ISSUE = { title: 'divide by zero', body: 'see crashes/dz/c1.txt', cause: 'dz' };

test('files issues with increasing numbers, and lists them by cause and run', async (t) => {
  const s = await open(t, tempDir(t, 'triage-tracker-'));
  const a = await s.file(ISSUE, { runId: 'r1' });
  const b = await s.file({ ...ISSUE, cause: 'other' }, { runId: 'r2' });
  assert.deepEqual([a.issue.number, b.issue.number, a.replayed], [1, 2, false]);
  assert.deepEqual(
    (await s.list({ cause: 'dz' })).map((i) => i.number),
    [1],
  );
  assert.deepEqual(
    (await s.list({ runId: 'r2' })).map((i) => i.number),
    [2],
  );
  assert.deepEqual(
    (await s.list()).map((i) => i.number),
    [1, 2],
  );
  assert.equal((await s.get(2))?.cause, 'other');
  assert.equal(await s.get(3), undefined);
  assert.equal(s.retentionMs, DEFAULT_RETENTION_MS);
});

test('a key seen within the retention returns the original issue without creating one', async (t) => {
  const s = await open(t, tempDir(t, 'triage-tracker-'));
  const first = await s.file(ISSUE, { key: 'k1', runId: 'r1' });
  const again = await s.file(ISSUE, { key: 'k1', runId: 'r1' });
  assert.equal(again.replayed, true);
  assert.deepEqual(again.issue, first.issue);
  assert.equal((await s.list()).length, 1);
  assert.deepEqual(await s.byKey('k1'), { issue: first.issue, live: true });
  assert.equal(await s.byKey('k2'), undefined);
});

test('concurrent filings with one key create one issue', async (t) => {
  const s = await open(t, tempDir(t, 'triage-tracker-'));
  const all = await Promise.all([1, 2, 3, 4].map(() => s.file(ISSUE, { key: 'same' })));
  assert.equal((await s.list()).length, 1);
  assert.deepEqual(
    all.map((r) => r.replayed),
    [false, true, true, true],
  );
});

test('a live key sent with a different request is refused', async (t) => {
  const s = await open(t, tempDir(t, 'triage-tracker-'));
  await s.file(ISSUE, { key: 'k1' });
  await assert.rejects(s.file({ ...ISSUE, title: 'something else' }, { key: 'k1' }), (e) => e instanceof KeyReusedError && /issue #1/.test(e.message));
  assert.equal((await s.list()).length, 1);
});

test('an expired key counts as no key (injected clock)', async (t) => {
  let now = Date.parse('2025-03-01T10:00:00Z');
  const s = await open(t, tempDir(t, 'triage-tracker-'), { retentionMs: 60_000, now: () => now });
  await s.file(ISSUE, { key: 'k1' });
  now += 59_999;
  assert.equal((await s.file(ISSUE, { key: 'k1' })).replayed, true);
  now += 1;
  assert.equal((await s.byKey('k1'))?.live, false, 'the key is still found, marked expired');
  const late = await s.file(ISSUE, { key: 'k1' });
  assert.equal(late.replayed, false);
  assert.equal(late.issue.number, 2);
  assert.equal((await s.list()).length, 2);
  assert.deepEqual(await s.byKey('k1'), { issue: late.issue, live: true }, 'the newest issue with the key answers');
});

test('issues survive a reopen; the file is private and a leftover temp file is ignored', async (t) => {
  const dir = tempDir(t, 'triage-tracker-');
  const s1 = await TrackerStore.open(dir);
  await s1.file(ISSUE, { key: 'k1', runId: 'r1' });
  await s1.file({ ...ISSUE, cause: 'b' }, { runId: 'r1' });
  await s1.close();
  await fs.writeFile(path.join(dir, '.issues-deadbeef.tmp'), '{"version":1,"iss'); // a crash mid-write
  const s2 = await open(t, dir);
  assert.deepEqual(
    (await s2.list()).map((i) => [i.number, i.cause, i.key]),
    [
      [1, 'dz', 'k1'],
      [2, 'b', undefined],
    ],
  );
  assert.equal((await s2.file(ISSUE, { key: 'k1' })).replayed, true, 'keys survive the reopen too');
  assert.equal((await s2.file({ ...ISSUE, cause: 'c' })).issue.number, 3);
  if (process.platform !== 'win32') assert.equal((await fs.stat(path.join(dir, ISSUES_FILE))).mode & 0o777, 0o600);
  assert.deepEqual(
    (await TrackerStore.readOnly(dir)).map((i) => i.number),
    [1, 2, 3],
  );
});

test('a truncated or corrupt issue file is a clear error, not an empty tracker, and is left as it is', async (t) => {
  const dir = tempDir(t, 'triage-tracker-');
  const s = await TrackerStore.open(dir);
  await s.file(ISSUE);
  await s.close();
  const file = path.join(dir, ISSUES_FILE);
  const good = await fs.readFile(file, 'utf8');
  const cases: [string, RegExp][] = [
    [good.slice(0, good.length - 10), /not valid JSON .*it may be truncated/],
    ['', /the file is empty/],
    ['{"version":1,"issues":[{"number":1}]}', /field "issues\[0\]\.title" is required/],
    ['{"version":2,"issues":[]}', /field "version" should be 1/],
    [
      '{"version":1,"issues":[{"number":1,"title":"t","body":"b","cause":"c","createdAt":"2026-01-01T00:00:00Z"},{"number":1,"title":"t","body":"b","cause":"c","createdAt":"2026-01-01T00:00:00Z"}]}',
      /issue #1 appears twice/,
    ],
    ['[]', /it should be an object, found an array/],
  ];
  for (const [text, re] of cases) {
    await fs.writeFile(file, text);
    await assert.rejects(TrackerStore.open(dir), (e) => e instanceof TrackerStoreCorruptError && re.test(e.message) && e.message.includes(file), text);
    await assert.rejects(TrackerStore.readOnly(dir), TrackerStoreCorruptError);
    assert.equal(await fs.readFile(file, 'utf8'), text, 'left as it is');
  }
});

test('two stores on one folder (two processes) share its issues: numbers, keys and the file stay consistent', async (t) => {
  const dir = tempDir(t, 'triage-tracker-');
  const a = await open(t, dir);
  const b = await open(t, dir);
  const filed = await Promise.all([
    ...[1, 2, 3].map((n) => a.file({ ...ISSUE, cause: `a${n}` }, { runId: 'ra' })),
    ...[1, 2, 3].map((n) => b.file({ ...ISSUE, cause: `b${n}` }, { runId: 'rb' })),
    a.file(ISSUE, { key: 'shared' }),
    b.file(ISSUE, { key: 'shared' }),
  ]);
  const all = await a.list();
  assert.equal(all.length, 7, 'six causes and one keyed filing (the same key from both stores files once)');
  assert.deepEqual(new Set(all.map((i) => i.number)).size, 7, 'no number given twice');
  assert.deepEqual(
    filed
      .slice(6)
      .map((f) => f.replayed)
      .sort(),
    [false, true],
  );
  assert.deepEqual(
    (await b.list()).map((i) => i.number),
    all.map((i) => i.number),
    'each store reads what the other filed',
  );
  assert.equal((await b.byKey('shared'))?.issue.number, (await a.byKey('shared'))?.issue.number);
});

test('a filing waits for another process that holds the store lock, and files once it is free', async (t) => {
  const dir = tempDir(t, 'triage-tracker-');
  const s = await open(t, dir);
  const held = await acquireRunLock('other-process', path.join(dir, ISSUES_FILE));
  // Watch the filing's attempts at the lock (the lock's folder is made through io()): it has
  // waited once it was refused twice, the second time after a backoff.
  const lockDir = lockPathOf(path.join(dir, ISSUES_FILE));
  let refused = 0;
  let onRefused = (): void => undefined;
  const real = io();
  const prev = useIo({
    ...real,
    mkdir: async (p, mode) => {
      try {
        await real.mkdir(p, mode);
      } catch (e) {
        if (p === lockDir) {
          refused++;
          onRefused();
        }
        throw e;
      }
    },
  });
  t.after(() => useIo(prev));
  const filing = s.file(ISSUE);
  await new Promise<void>((resolve) => {
    onRefused = () => {
      if (refused >= 2) resolve();
    };
  });
  assert.equal((await s.list()).length, 0, 'nothing filed while the lock is held');
  await held.release();
  assert.equal((await filing).issue.number, 1);
});

test('readOnly of a store that was never written has no issues', async (t) => {
  assert.deepEqual(await TrackerStore.readOnly(path.join(tempDir(t, 'triage-tracker-'), 'missing')), []);
});
