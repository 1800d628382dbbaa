import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { listFilesTool, LIST_CAP } from '../../src/tools/list-files';
import { readFileTool, READ_CAP, WINDOW_LINES } from '../../src/tools/read-file';
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

test('list_files lists folders (marked "/") and files, sorted, skipping node_modules and .git, and counts what it left out', async (t) => {
  const ws = await sample(t);
  const out = await listFilesTool().run({}, context(ws));
  assert.equal(out.isError, undefined);
  assert.equal(out.content, '.: 3 files, 1 folders; ignored folders not listed: .git/, node_modules/\nREADME.md\nsrc/\nsrc/a.js\nsrc/b.js');
  const sub = await listFilesTool().run({ path: 'src' }, context(ws));
  assert.equal(sub.content, 'src: 2 files, 0 folders; nothing left out\nsrc/a.js\nsrc/b.js');
  const shallow = await listFilesTool().run({ depth: 1 }, context(ws));
  assert.equal(
    shallow.content,
    '.: 1 files, 1 folders; 1 folders not entered (depth 1); ignored folders not listed: .git/, node_modules/\nREADME.md\nsrc/ (not listed: deeper than depth)',
  );
  const js = await listFilesTool().run({ glob: '*.js' }, context(ws));
  assert.equal(js.content, '.: 2 files; 1 files not matching *.js; ignored folders not listed: .git/, node_modules/\nsrc/a.js\nsrc/b.js');
  const inside = await listFilesTool().run({ path: 'node_modules' }, context(ws));
  assert.equal(inside.content, 'node_modules: 1 files, 1 folders; nothing left out\nnode_modules/dep/\nnode_modules/dep/index.js');
});

test('list_files caps its listing and says how many more', async (t) => {
  const ws = tempDir(t);
  const files: Record<string, string> = {};
  for (let i = 0; i < LIST_CAP + 7; i++) files[`f/${String(i).padStart(4, '0')}.txt`] = '';
  await writeTree(ws, files);
  const out = await listFilesTool().run({}, context(ws));
  const lines = out.content.split('\n');
  assert.equal(lines.length, LIST_CAP + 1);
  assert.match(lines[0], /^\.: 507 files, 1 folders; 8 more not shown \(cap 500/);
});

test('list_files: bad arguments and bad paths are error results', async (t) => {
  const ws = await sample(t);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 3 }, /argument "path" should be a string, found a number/],
    [{ path: '../' }, /outside the workspace/],
    [{ path: 'nope' }, /"nope" does not exist/],
    [{ path: 'README.md' }, /is a file, not a folder/],
    [{ dir: 'src' }, /no argument "dir"/],
    [{ glob: '*.zz' }, /the glob "\*\.zz" matches none of the 3 files listed in \./],
    [{ glob: '!*.js' }, /exclusions are not supported/],
    [{ depth: 0 }, /depth/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(listFilesTool(), args, context(ws));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
});

test('read_file numbers every line and says which lines it showed of how many', async (t) => {
  const ws = await sample(t);
  assert.deepEqual(await readFileTool().run({ path: 'src/a.js' }, context(ws)), {
    content: "src/a.js: lines 1-2 of 2; the whole file\n1\t// divide helper\n2\tmodule.exports = require('./b');",
  });
  const part = await readFileTool().run({ path: 'src/b.js', start_line: 2, line_count: 2 }, context(ws));
  assert.equal(part.content, 'src/b.js: lines 2-3 of 4; not shown: lines 1, 4\n2\tfunction divide(a, b) {\n3\t  return a / b;');
  const tail = await readFileTool().run({ path: 'src/b.js', start_line: 3 }, context(ws));
  assert.equal(tail.content, 'src/b.js: lines 3-4 of 4; not shown: lines 1-2\n3\t  return a / b;\n4\t}');
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 'src' }, /"src" is a folder/],
    [{ path: 'src/zz.js' }, /"src\/zz.js" does not exist/],
    [{}, /argument "path" is required/],
    [{ path: { a: 1 } }, /should be a string, found an object/],
    [{ path: '/etc/passwd' }, /absolute/],
    [{ path: 'src/b.js', start_line: 5 }, /start_line 5 is past the end of src\/b.js, which has 4 lines/],
    [{ path: 'src/b.js', start_line: 0 }, /start_line/],
    [{ path: 'src/b.js', line_count: WINDOW_LINES + 1 }, /line_count/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(readFileTool(), args, context(ws));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
});

test('read_file shows at most WINDOW_LINES lines by default and names the rest', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'long.txt': Array.from({ length: WINDOW_LINES + 10 }, (_, i) => `l${i + 1}`).join('\n') });
  const out = await readFileTool().run({ path: 'long.txt' }, context(ws));
  const lines = out.content.split('\n');
  assert.equal(lines[0], `long.txt: lines 1-${WINDOW_LINES} of ${WINDOW_LINES + 10}; not shown: lines ${WINDOW_LINES + 1}-${WINDOW_LINES + 10}`);
  assert.equal(lines.length, WINDOW_LINES + 1);
  assert.equal(lines[WINDOW_LINES], `${WINDOW_LINES}\tl${WINDOW_LINES}`);
});

test('read_file stops its window at the byte cap, at a line end', async (t) => {
  const ws = tempDir(t);
  const line = 'x'.repeat(999);
  await writeTree(ws, { 'big.txt': `${line}\n`.repeat(300) });
  const out = await readFileTool().run({ path: 'big.txt' }, context(ws));
  const shown = Math.floor(READ_CAP / 1000);
  assert.equal(out.content.split('\n')[0], `big.txt: lines 1-${shown} of 300; not shown: lines ${shown + 1}-300`);
  assert.ok(Buffer.byteLength(out.content) < READ_CAP + 2000);
});

test('search_files groups literal, case-sensitive matches by file, sorted, with line numbers', async (t) => {
  const ws = await sample(t);
  const out = await searchFilesTool().run({ query: 'divide' }, context(ws));
  assert.equal(
    out.content,
    '3 matching lines in 3 files for the text "divide" in .: all shown\nREADME.md\n  1: Calls divide(a, b).\nsrc/a.js\n  1: // divide helper\nsrc/b.js\n  2: function divide(a, b) {',
  );
  const lit = await searchFilesTool().run({ query: 'a / b', path: 'src' }, context(ws));
  assert.equal(lit.content, '1 matching line in 1 file for the text "a / b" in src: all shown\nsrc/b.js\n  3:   return a / b;');
  const cs = await searchFilesTool().run({ query: 'DIVIDE' }, context(ws));
  assert.match(cs.content, /^no matches for the text "DIVIDE"/);
  const oneFile = await searchFilesTool().run({ query: 'divide', path: 'src/b.js' }, context(ws));
  assert.equal(oneFile.content, '1 matching line in 1 file for the text "divide" in src/b.js: all shown\nsrc/b.js\n  2: function divide(a, b) {');
});

test('search_files caps its matches and says how many it did not show', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'many.txt': 'hit\n'.repeat(MATCH_CAP + 3) });
  const out = await searchFilesTool().run({ query: 'hit' }, context(ws));
  const lines = out.content.split('\n');
  assert.equal(
    lines[0],
    `${MATCH_CAP + 3} matching lines in 1 file for the text "hit" in .: ${MATCH_CAP} shown, 3 not (in 1 files; narrow the search with "path" or "glob")`,
  );
  assert.equal(lines.length, MATCH_CAP + 3);
  assert.equal(lines[lines.length - 1], '  ... 3 more matching lines in this file');
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
    [{ query: 'x', path: 'leak.txt' }, /outside the workspace/],
    [{ query: 'x', case: 'upper' }, /case/],
    [{ query: 'x', context: 99 }, /context/],
  ] as [Record<string, unknown>, RegExp][]) {
    const r = await callTool(searchFilesTool(), args, context(ws));
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.match(r.content, re);
  }
});

test('the read tools declare themselves read-only', () => {
  for (const tool of [listFilesTool(), readFileTool(), searchFilesTool()]) assert.equal(tool.readOnly, true);
});
