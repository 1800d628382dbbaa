/** The lock directory is private (0700), and its owner record is read only up to a small cap. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRun, listRuns, openRun, runPath } from '../../src/store/files/checkpoint';
import { LockedError } from '../../src/core/errors';
import { OWNER_FILE, OWNER_MAX_BYTES, readOwnerRecord } from '../../src/disk/lock-owner';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

async function newRun(t: import('node:test').TestContext): Promise<{ dir: string; runId: string; lockDir: string }> {
  const dir = tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  return { dir, runId: s.runId, lockDir: `${runPath(dir, s.runId)}.lock` };
}

/** Bytes this process has had returned by read(2) so far (Linux; counts reads of a sparse file's holes too). */
async function bytesRead(): Promise<number> {
  const io = await fs.readFile('/proc/self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)![1]);
}

test('the lock directory is 0700 whatever the umask', { skip: process.platform === 'win32' }, async (t) => {
  const { dir, runId, lockDir } = await newRun(t);
  const old = process.umask(0o002);
  let mode: number;
  try {
    const { handle } = await openRun(dir, runId);
    t.after(() => handle.close());
    mode = (await fs.stat(lockDir)).mode & 0o777;
  } finally {
    process.umask(old);
  }
  assert.equal(mode.toString(8), '700');
});

test(
  'a 300 MB owner record is not read: the lock is respected with its owner unknown, and the message says why',
  { skip: process.platform !== 'linux' },
  async (t) => {
    const { dir, runId, lockDir } = await newRun(t);
    await fs.mkdir(lockDir);
    const record = path.join(lockDir, OWNER_FILE);
    const fh = await fs.open(record, 'w');
    await fh.truncate(300 * 1024 * 1024); // sparse: no disk space, but 300 MB to whoever reads it all
    await fh.close();

    const before = await bytesRead();
    const r = await readOwnerRecord(lockDir);
    assert.ok(r.owner === undefined);
    assert.match(r.problem ?? '', new RegExp(`bigger than the ${OWNER_MAX_BYTES} bytes an owner record can be`));
    assert.match(r.problem ?? '', /314572800 bytes/);
    await assert.rejects(openRun(dir, runId), (e: unknown) => {
      assert.ok(e instanceof LockedError);
      assert.equal(e.owner, undefined);
      assert.match(e.message, /Its owner is unknown: its owner record .*owner\.json is bigger than the 4096 bytes/);
      assert.match(e.message, /taken over once nothing has refreshed it for 10 s/);
      return true;
    });
    assert.equal((await listRuns(dir))[0].locked, true, 'a fresh lock without a usable owner still counts as held');
    const read = (await bytesRead()) - before;
    assert.ok(read < 1024 * 1024, `only a capped part of the record may be read, not ${read} bytes`);
  },
);

// The timeout only ends a hang of the code before this fix (a blocking open of the FIFO); it is no timed assertion.
test('an owner record that is a FIFO is refused at once instead of blocking the reader', { skip: process.platform !== 'linux', timeout: 60_000 }, async (t) => {
  const { lockDir } = await newRun(t);
  await fs.mkdir(lockDir);
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [path.join(lockDir, OWNER_FILE)]);
  const r = await readOwnerRecord(lockDir);
  assert.equal(r.owner, undefined);
  assert.match(r.problem ?? '', /is not a regular file/);
});
