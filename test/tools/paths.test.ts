import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInWorkspace, toRel, ToolInputError } from '../../src/workspace/paths';
import { writeTree } from './support';
import { tempDir } from '../support/temp-dir';

const refused = (re: RegExp) => (e: unknown) => e instanceof ToolInputError && re.test(e.message);

test('a relative path resolves inside the workspace; inner .. that stays inside is fine', async (t) => {
  const ws = tempDir(t);
  assert.equal(resolveInWorkspace(ws, 'src/a.js'), path.join(ws, 'src', 'a.js'));
  assert.equal(resolveInWorkspace(ws, 'src/../b.js'), path.join(ws, 'b.js'));
  assert.equal(resolveInWorkspace(ws, '.'), path.resolve(ws));
  assert.equal(resolveInWorkspace(ws, 'not/yet/there.txt'), path.join(ws, 'not', 'yet', 'there.txt'));
});

test('.. that climbs out of the workspace is refused', async (t) => {
  const ws = tempDir(t);
  assert.throws(() => resolveInWorkspace(ws, '../x'), refused(/path "\.\.\/x" is outside the workspace/));
  assert.throws(() => resolveInWorkspace(ws, 'src/../../x'), refused(/outside the workspace/));
  assert.throws(() => resolveInWorkspace(ws, '..'), refused(/outside the workspace/));
  assert.throws(() => resolveInWorkspace(ws, 'a\\..\\..\\x'), refused(/outside the workspace/));
});

test('absolute paths are refused (POSIX, Windows drive, UNC)', async (t) => {
  const ws = tempDir(t);
  for (const p of ['/etc/passwd', path.join(ws, 'a.js'), 'C:\\Windows\\x', 'c:x', '\\\\server\\share\\x']) {
    assert.throws(() => resolveInWorkspace(ws, p), refused(/is absolute/), p);
  }
});

test('NUL bytes, empty and non-string paths are refused', async (t) => {
  const ws = tempDir(t);
  assert.throws(() => resolveInWorkspace(ws, 'a\0b'), refused(/NUL byte/));
  assert.throws(() => resolveInWorkspace(ws, ''), refused(/empty/));
  assert.throws(() => resolveInWorkspace(ws, '   '), refused(/empty/));
  assert.throws(() => resolveInWorkspace(ws, 42), refused(/should be a string, found a number/));
  assert.throws(() => resolveInWorkspace(ws, null), refused(/found null/));
  assert.throws(() => resolveInWorkspace(ws, undefined), refused(/found nothing/));
  assert.throws(() => resolveInWorkspace(ws, ['a']), refused(/found an array/));
});

test('a symlink that leads out of the workspace is refused, as a folder or as the file itself', async (t) => {
  const ws = tempDir(t);
  const outside = tempDir(t, 'triage-outside-');
  await writeTree(outside, { 'secret.txt': 'secret' });
  await fs.symlink(outside, path.join(ws, 'out'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'secret.txt'));
  assert.throws(() => resolveInWorkspace(ws, 'out/secret.txt'), refused(/"out" is a symlink that leads out of it/));
  assert.throws(() => resolveInWorkspace(ws, 'out/new-file.txt'), refused(/leads out/));
  assert.throws(() => resolveInWorkspace(ws, 'secret.txt'), refused(/"secret.txt" is a symlink that leads out/));
});

test('a broken symlink is refused (writing through it could create a file anywhere)', async (t) => {
  const ws = tempDir(t);
  await fs.symlink('/nonexistent-dir-for-triage-test/x', path.join(ws, 'dangling'));
  assert.throws(() => resolveInWorkspace(ws, 'dangling'), refused(/broken symlink "dangling"/));
});

test('a symlink that stays inside the workspace is fine, also when the workspace is reached through a symlink', async (t) => {
  const real = tempDir(t);
  await writeTree(real, { 'src/a.js': 'a' });
  await fs.symlink(path.join(real, 'src'), path.join(real, 'lib'));
  await fs.symlink(path.join(real, 'src', 'a.js'), path.join(real, 'alias.js'));
  assert.equal(resolveInWorkspace(real, 'lib/a.js'), path.join(real, 'lib', 'a.js'));
  assert.equal(resolveInWorkspace(real, 'alias.js'), path.join(real, 'alias.js'));
  const holder = tempDir(t, 'triage-link-');
  const viaLink = path.join(holder, 'ws');
  await fs.symlink(real, viaLink);
  assert.equal(resolveInWorkspace(viaLink, 'lib/a.js'), path.join(viaLink, 'lib', 'a.js'));
});

test('toRel gives forward-slash paths, "." for the root', async (t) => {
  const ws = tempDir(t);
  assert.equal(toRel(ws, path.join(ws, 'src', 'a.js')), 'src/a.js');
  assert.equal(toRel(ws, ws), '.');
});
