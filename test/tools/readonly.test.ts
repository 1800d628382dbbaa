import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { listFilesTool, LIST_CAP } from '../../src/tools/list-files';
import { readFileTool, READ_CAP } from '../../src/tools/read-file';
import { searchFilesTool, MATCH_CAP } from '../../src/tools/search-files';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

async function sample(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const ws = tempDir(t);
  await writeTree(ws, {
    'src/b.js': 'const x = 1;\nfunction divide(a, b) {\n  return a / b;\n}\n',
    'src/a.js': "// divide helper\nmodule.exports = require('./b');\n",
    'README.md': 'Calls divide(a, b).\n',
    'node_modules/dep/index.js': 'divide',
    '.git/HEAD': 'ref: divide',
  });
  return ws;
}

test('list_files lists every file, sorted, forward slashes, skipping node_modules and .git', async (t) => {
  const ws = await sample(t);
  const out = await listFilesTool().run({}, context(ws));
  assert.equal(out.isError, undefined);
  assert.equal(out.content, 'README.md\nsrc/a.js\nsrc/b.js');
  const sub = await listFilesTool().run({ path: 'src' }, context(ws));
  assert.equal(sub.content, 'src/a.js\nsrc/b.js');
});

test('list_files caps its listing and says how many more', async (t) => {
  const ws = tempDir(t);
  const files: Record<string, string> = {};
  for (let i = 0; i < LIST_CAP + 7; i++) files[`f/${String(i).padStart(4, '0')}.txt`] = '';
  await writeTree(ws, files);
  const out = await listFilesTool().run({}, context(ws));
  const lines = out.content.split('\n');
  assert.equal(lines.length, LIST_CAP + 1);
  assert.equal(lines[LIST_CAP], '... 7 more');
});

test('list_files: bad arguments and bad paths are error results', async (t) => {
  const ws = await sample(t);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 3 }, /argument "path" should be a string, found a number/],
    [{ path: '../' }, /outside the workspace/],
    [{ path: 'nope' }, /"nope" does not exist/],
    [{ path: 'README.md' }, /is a file, not a folder/],
    [{ dir: 'src' }, /no argument "dir"/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(listFilesTool(), args, context(ws));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
});

test('read_file returns the text; errors for a folder, a missing file, bad arguments', async (t) => {
  const ws = await sample(t);
  assert.deepEqual(await readFileTool().run({ path: 'src/a.js' }, context(ws)), { content: "// divide helper\nmodule.exports = require('./b');\n" });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 'src' }, /"src" is a folder/],
    [{ path: 'src/zz.js' }, /"src\/zz.js" does not exist/],
    [{}, /argument "path" is required/],
    [{ path: { a: 1 } }, /should be a string, found an object/],
    [{ path: '/etc/passwd' }, /absolute/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(readFileTool(), args, context(ws));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
});

test('read_file caps a big file with a note', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'big.txt': 'x'.repeat(READ_CAP + 500) });
  const out = await readFileTool().run({ path: 'big.txt' }, context(ws));
  assert.ok(out.content.startsWith('x'.repeat(READ_CAP)));
  assert.match(out.content, /\[truncated: big.txt is 100500 bytes; the first 100000 are shown, 500 are not\]$/);
});

test('search_files finds literal, case-sensitive matches as path:line: text', async (t) => {
  const ws = await sample(t);
  const out = await searchFilesTool().run({ query: 'divide' }, context(ws));
  assert.equal(out.content, 'README.md:1: Calls divide(a, b).\nsrc/a.js:1: // divide helper\nsrc/b.js:2: function divide(a, b) {');
  const lit = await searchFilesTool().run({ query: 'a / b', path: 'src' }, context(ws));
  assert.equal(lit.content, 'src/b.js:3: return a / b;');
  const cs = await searchFilesTool().run({ query: 'DIVIDE' }, context(ws));
  assert.match(cs.content, /^no matches for "DIVIDE"/);
  const oneFile = await searchFilesTool().run({ query: 'divide', path: 'src/b.js' }, context(ws));
  assert.equal(oneFile.content, 'src/b.js:2: function divide(a, b) {');
});

test('search_files caps its matches', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'many.txt': 'hit\n'.repeat(MATCH_CAP + 3) });
  const out = await searchFilesTool().run({ query: 'hit' }, context(ws));
  const lines = out.content.split('\n');
  assert.equal(lines.length, MATCH_CAP + 1);
  assert.equal(lines[MATCH_CAP], '... 3 more matches');
});

test('search_files never reads through a symlink that leads out; bad arguments are error results', async (t) => {
  const ws = await sample(t);
  const outside = tempDir(t, 'triage-outside-');
  await writeTree(outside, { 'secret.txt': 'divide secret' });
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'leak.txt'));
  const out = await searchFilesTool().run({ query: 'secret' }, context(ws));
  assert.match(out.content, /^no matches/);
  for (const [args, re] of [
    [{}, /"query" is required/],
    [{ query: '' }, /"query" is empty/],
    [{ query: 5 }, /should be a string/],
    [{ query: 'x', path: '../..' }, /outside the workspace/],
  ] as [Record<string, unknown>, RegExp][]) {
    const r = await callTool(searchFilesTool(), args, context(ws));
    assert.equal(r.isError, true);
    assert.match(r.content, re);
  }
});

test('the read tools declare themselves read-only', () => {
  for (const tool of [listFilesTool(), readFileTool(), searchFilesTool()]) assert.equal(tool.readOnly, true);
});
