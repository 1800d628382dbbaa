/** writeFileDurable: what a plain write did (through symlinks, modes kept), made durable, leaving nothing beside. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurable } from '../../src/disk/durable-write';
import { PowerCutDisk } from '../../src/sweep/power-cut';
import { tempDir } from '../support/temp-dir';

test('replacing a file keeps its mode and leaves no temp file; a symlink is written through', async (t) => {
  const ws = tempDir(t);
  fs.writeFileSync(path.join(ws, 'tool.sh'), 'old\n', { mode: 0o750 });
  fs.chmodSync(path.join(ws, 'tool.sh'), 0o750);
  fs.symlinkSync('tool.sh', path.join(ws, 'link.sh'));
  await writeFileDurable(path.join(ws, 'link.sh'), Buffer.from('new\n'), { top: ws });
  assert.equal(fs.readFileSync(path.join(ws, 'tool.sh'), 'utf8'), 'new\n');
  assert.ok(fs.lstatSync(path.join(ws, 'link.sh')).isSymbolicLink(), 'the link is still a link');
  assert.equal(fs.statSync(path.join(ws, 'tool.sh')).mode & 0o777, 0o750);
  assert.deepEqual(fs.readdirSync(ws).sort(), ['link.sh', 'tool.sh']);
});

for (const how of ['undo', 'keep'] as const) {
  test(`a new file in new folders is there after a cut right after the write returned (${how})`, async (t) => {
    const root = tempDir(t);
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const disk = new PowerCutDisk(root, how);
    const life = await disk.life(async (power) => {
      await writeFileDurable(path.join(ws, 'test', 'deep', 'a.test.js'), Buffer.from('ok\n'), { top: ws });
      await writeFileDurable(path.join(ws, 'test', 'deep', 'a.test.js'), Buffer.from('ok again\n'), { top: ws });
      power.cut();
    });
    assert.ok(life.cut);
    assert.equal(fs.readFileSync(path.join(ws, 'test', 'deep', 'a.test.js'), 'utf8'), 'ok again\n');
  });
}

test('a file we may not write is refused (EACCES) and left as it is, as a plain write would', { skip: process.getuid?.() === 0 }, async (t) => {
  const ws = tempDir(t);
  const file = path.join(ws, 'locked.txt');
  fs.writeFileSync(file, 'mine\n');
  fs.chmodSync(file, 0o444);
  await assert.rejects(writeFileDurable(file, Buffer.from('theirs\n'), { top: ws }), { code: 'EACCES' });
  assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
  assert.deepEqual(fs.readdirSync(ws), ['locked.txt']);
});
