import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileTool } from '../../src/tools/write-file';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const sha12 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

test('write_file creates parent folders, writes, records the write, and says what it wrote', async (t) => {
  const ws = tempDir(t);
  const ctx = context(ws);
  const content = "test('x', () => {});\n";
  const out = await writeFileTool().run({ path: 'test/deep/new.test.js', content }, ctx);
  assert.deepEqual(out, { content: `wrote test/deep/new.test.js (${Buffer.byteLength(content)} bytes, sha256 ${sha12(content)})` });
  assert.equal(await fs.readFile(path.join(ws, 'test', 'deep', 'new.test.js'), 'utf8'), content);
  assert.equal(ctx.writes.length, 1);
  assert.equal(ctx.writes[0].rel, 'test/deep/new.test.js');
  assert.equal(ctx.writes[0].content.toString('utf8'), content);
});

test('write_file is idempotent: the same content twice gives the same file and the same text', async (t) => {
  const ws = tempDir(t);
  const tool = writeFileTool();
  assert.equal(tool.idempotent, true);
  assert.notEqual(tool.readOnly, true);
  const a = await tool.run({ path: 'a.txt', content: 'héllo' }, context(ws));
  const b = await tool.run({ path: 'a.txt', content: 'héllo' }, context(ws));
  assert.deepEqual(a, b);
  assert.match(a.content, /\(6 bytes,/);
  assert.equal(await fs.readFile(path.join(ws, 'a.txt'), 'utf8'), 'héllo');
});

test('write_file writes an empty file when content is ""', async (t) => {
  const ws = tempDir(t);
  const out = await writeFileTool().run({ path: 'empty.txt', content: '' }, context(ws));
  assert.match(out.content, /^wrote empty.txt \(0 bytes/);
});

test('write_file refuses bad arguments and paths, and writes nothing', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'src/a.js': 'a' });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 'x.txt' }, /"content" is required/],
    [{ path: 'x.txt', content: 12 }, /"content" should be a string, found a number/],
    [{ content: 'x' }, /"path" is required/],
    [{ path: '../escape.txt', content: 'x' }, /outside the workspace/],
    [{ path: '/tmp/abs.txt', content: 'x' }, /absolute/],
    [{ path: '.git/hooks/pre-commit', content: 'x' }, /inside .git/],
    [{ path: 'node_modules/x/index.js', content: 'x' }, /inside node_modules/],
    [{ path: 'src', content: 'x' }, /"src" is a folder/],
    [{ path: 'x.txt', content: 'x', mode: 1 }, /no argument "mode"/],
  ];
  for (const [args, re] of cases) {
    const ctx = context(ws);
    const out = await callTool(writeFileTool(), args, ctx);
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
    assert.equal(ctx.writes.length, 0);
  }
  assert.deepEqual((await fs.readdir(ws)).sort(), ['src']);
});

test('write_file describe() shows the change when it knows the workspace', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'a.txt': 'old\n' });
  const d = writeFileTool({ workspace: ws }).describe!({ path: 'a.txt', content: 'new\n' });
  assert.equal(d.title, 'Write a.txt');
  assert.deepEqual(d.diff, { path: 'a.txt', before: 'old\n', after: 'new\n' });
});
