/** writeFileAtomic, the one atomic writer (state files and, through writeFileDurable, workspace files). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../src/disk/atomic-write';
import { tempDir } from '../support/temp-dir';

const posix = process.platform !== 'win32';

test('without a mode the new file is 0600; with one it has exactly that mode, whatever the umask', { skip: !posix }, async (t) => {
  const dir = tempDir(t);
  const old = process.umask(0o077);
  try {
    await writeFileAtomic(path.join(dir, 'state.json'), path.join(dir, '.state.tmp'), '{}\n');
    await writeFileAtomic(path.join(dir, 'tool.sh'), path.join(dir, '.tool.tmp'), 'echo\n', { mode: 0o755 });
  } finally {
    process.umask(old);
  }
  assert.equal(fs.statSync(path.join(dir, 'state.json')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.join(dir, 'tool.sh')).mode & 0o777, 0o755);
  assert.equal(fs.readFileSync(path.join(dir, 'tool.sh'), 'utf8'), 'echo\n');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['state.json', 'tool.sh'], 'no temp file is left');
});

test('a write that fails before the rename removes its temp file and leaves the old file', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'issues.json');
  fs.writeFileSync(file, 'old\n');
  const crash = (): void => {
    throw new Error('disk full');
  };
  await assert.rejects(writeFileAtomic(file, path.join(dir, '.issues.tmp'), 'new\n', { mode: 0o644, crash }), /disk full/);
  assert.equal(fs.readFileSync(file, 'utf8'), 'old\n');
  assert.deepEqual(fs.readdirSync(dir), ['issues.json']);
});
