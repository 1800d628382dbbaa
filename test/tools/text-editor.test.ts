/**
 * The text editor (Anthropic's str_replace_based_edit_tool): view with a range and numbered
 * lines, str_replace, create, insert; a range or line past the end and a missing argument are
 * tool errors naming them, nothing written; its lookup answers done, not done, or throws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { textEditorTool } from '../../src/tools/text-editor';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const FILE = 'one\ntwo\nthree\nfour\n';

async function ws(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const dir = tempDir(t);
  await writeTree(dir, { 'a.txt': FILE, '.git/HEAD': 'ref\n' });
  return dir;
}
const read = (dir: string, rel = 'a.txt') => fs.readFile(path.join(dir, rel), 'utf8');

test('text editor: named for Anthropic, offered to Anthropic only, not idempotent', () => {
  const tool = textEditorTool();
  assert.equal(tool.name, 'str_replace_based_edit_tool');
  assert.equal(tool.vendor, 'anthropic');
  assert.notEqual(tool.idempotent, true);
  assert.notEqual(tool.readOnly, true);
});

test('text editor view: numbered lines, a range, and a note of what was not shown', async (t) => {
  const dir = await ws(t);
  const tool = textEditorTool();
  assert.equal((await callTool(tool, { command: 'view', path: 'a.txt' }, context(dir))).content, '1\tone\n2\ttwo\n3\tthree\n4\tfour');
  assert.equal(
    (await callTool(tool, { command: 'view', path: 'a.txt', view_range: [2, 3] }, context(dir))).content,
    '2\ttwo\n3\tthree\n... [a.txt has 4 lines; lines 2-3 are shown]',
  );
  assert.equal(
    (await callTool(tool, { command: 'view', path: 'a.txt', view_range: [3, -1] }, context(dir))).content,
    '3\tthree\n4\tfour\n... [a.txt has 4 lines; lines 3-4 are shown]',
  );
});

test('text editor: bad input is a tool error naming it, and nothing is written', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const tool = textEditorTool();
  for (const [args, re] of [
    [{ command: 'view', path: 'a.txt', view_range: [5, 6] }, /view_range starts at line 5, past the end of "a.txt" \(4 lines\)/],
    [{ command: 'view', path: 'a.txt', view_range: [2, 9] }, /view_range ends at line 9, past the end of "a.txt" \(4 lines\); use -1/],
    [{ command: 'view', path: 'a.txt', view_range: [3, 2] }, /ends before it starts/],
    [{ command: 'insert', path: 'a.txt', insert_line: 7, insert_text: 'x' }, /insert_line 7 is past the end of "a.txt" \(4 lines\); give 0 to 4/],
    [{ command: 'insert', path: 'a.txt', insert_text: 'x' }, /the insert command needs the argument "insert_line"/],
    [{ command: 'str_replace', path: 'a.txt', old_str: 'o', new_str: 'x' }, /occurs 3 times in "a.txt" \(starting on lines 1, 2, 4\)/],
    [
      { command: 'create', path: 'a.txt', file_text: 'x' },
      /create does not overwrite: "a.txt" exists already, and nothing was changed\. Change it with str_replace or insert/,
    ],
    [{ command: 'view', path: '.', view_range: [1, 2] }, /"\." is a folder; view_range is for files/],
    [{ command: 'str_replace', path: 'a.txt', old_str: 'five', new_str: 'x' }, /0 occurrences/],
    [{ command: 'create', path: '.git/HEAD', file_text: 'x' }, /refusing to write ".git\/HEAD"/],
    [{ command: 'create', path: '../b.txt', file_text: 'x' }, /outside the workspace/],
    [{ command: 'create', path: 'b.txt' }, /the create command needs the argument "file_text"/],
    [{ command: 'delete', path: 'a.txt' }, /Invalid arguments for str_replace_based_edit_tool: argument "command"/],
  ] as [Record<string, unknown>, RegExp][]) {
    const r = await callTool(tool, args, ctx);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.match(r.content, re);
  }
  assert.equal(await read(dir), FILE);
  assert.equal(await read(dir, '.git/HEAD'), 'ref\n');
  await assert.rejects(fs.stat(path.join(dir, 'b.txt')));
  assert.deepEqual(ctx.writes, []);
});

test('text editor str_replace, insert and create write and record; their lookups answer done / not done / throw', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const tool = textEditorTool();
  const rep = { command: 'str_replace' as const, path: 'a.txt', old_str: 'two\n', new_str: 'TWO\n' };
  assert.deepEqual(await tool.lookup!(rep, ctx), { status: 'not-done' });
  assert.equal((await callTool(tool, rep, ctx)).content, 'replaced in a.txt\nlines 1-4 of a.txt now:\n1\tone\n2\tTWO\n3\tthree\n4\tfour');
  assert.equal((await tool.lookup!(rep, ctx)).status, 'done');

  const ins = { command: 'insert' as const, path: 'a.txt', insert_line: 1, insert_text: 'one and a half' };
  assert.deepEqual(await tool.lookup!(ins, ctx), { status: 'not-done' });
  assert.equal(
    (await callTool(tool, ins, ctx)).content,
    'inserted into a.txt after line 1\nlines 1-5 of a.txt now:\n1\tone\n2\tone and a half\n3\tTWO\n4\tthree\n5\tfour',
  );
  assert.equal(await read(dir), 'one\none and a half\nTWO\nthree\nfour\n');
  // the text is at its place, but the file may have held it there before: a person decides
  await assert.rejects(tool.lookup!(ins, ctx), /cannot tell whether the insert into a.txt happened/);
  await callTool(tool, { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'zero\n' }, ctx);
  await callTool(tool, { command: 'insert', path: 'a.txt', insert_line: 6, insert_text: 'five' }, ctx);
  assert.equal(await read(dir), 'zero\none\none and a half\nTWO\nthree\nfour\nfive\n');

  const cre = { command: 'create' as const, path: 'sub/new.txt', file_text: 'new\n' };
  assert.deepEqual(await tool.lookup!(cre, ctx), { status: 'not-done' });
  assert.match((await callTool(tool, cre, ctx)).content, /^wrote sub\/new.txt \(4 bytes/);
  assert.equal((await tool.lookup!(cre, ctx)).status, 'done');
  assert.deepEqual(
    ctx.writes.map((w) => w.rel),
    ['a.txt', 'a.txt', 'a.txt', 'a.txt', 'a.txt', 'sub/new.txt', 'sub/new.txt'],
  );
  // a view is never "done": running it again is harmless
  assert.deepEqual(await tool.lookup!({ command: 'view', path: 'a.txt' }, ctx), { status: 'not-done' });
  // a replacement whose both texts are there now: unsure
  await fs.writeFile(path.join(dir, 'a.txt'), 'two\nTWO\n');
  await assert.rejects(tool.lookup!(rep, ctx), /both the old and the new text/);
});

test('text editor describe(): the before/after diff of an edit', async (t) => {
  const dir = await ws(t);
  const d = textEditorTool({ workspace: dir }).describe!({ command: 'insert', path: 'a.txt', insert_line: 4, insert_text: 'five' });
  assert.equal(d.title, 'Insert into a.txt');
  assert.deepEqual(d.diff, { path: 'a.txt', before: FILE, after: `${FILE}five\n` });
});

test('text editor as Anthropic documents it: a folder is listed, an absolute path inside the workspace is taken, insert takes new_str', async (t) => {
  const dir = await ws(t);
  await writeTree(dir, { 'src/app.py': 'print(1)\n', 'src/lib/deep/x.py': '\n' });
  const ctx = context(dir);
  const tool = textEditorTool();
  const listing = (await callTool(tool, { command: 'view', path: '.' }, ctx)).content;
  assert.match(listing, /^a\.txt$/m);
  assert.match(listing, /^src\/app\.py$/m);
  assert.match(listing, /^src\/lib\/ \(not listed: deeper than depth\)$/m); // two levels
  assert.doesNotMatch(listing, /^\.git\//m);
  assert.equal((await callTool(tool, { command: 'view', path: path.join(dir, 'src') }, ctx)).isError, undefined);
  assert.equal(
    (await callTool(tool, { command: 'view', path: path.join(dir, 'a.txt'), view_range: [1, 1] }, ctx)).content,
    '1\tone\n... [a.txt has 4 lines; lines 1-1 are shown]',
  );
  const abs = { command: 'str_replace' as const, path: path.join(dir, 'src', 'app.py'), old_str: 'print(1)', new_str: 'print(2)' };
  assert.deepEqual(tool.writes!(abs, dir), ['src/app.py']);
  assert.match((await callTool(tool, abs, ctx)).content, /^replaced in src\/app\.py\n/);
  assert.equal(await read(dir, 'src/app.py'), 'print(2)\n');
  // outside the workspace, absolute or not: refused
  const out = await callTool(tool, { command: 'create', path: path.join(path.dirname(dir), 'x.txt'), file_text: 'x' }, ctx);
  assert.equal(out.isError, true);
  assert.match(out.content, /absolute|outside/);
  await callTool(tool, { command: 'insert', path: 'a.txt', insert_line: 4, new_str: 'five' }, ctx);
  assert.equal(await read(dir), `${FILE}five\n`);
  assert.deepEqual(
    ctx.writes.map((w) => w.rel),
    ['src/app.py', 'a.txt'],
  );
});

test('text editor and str_replace: a CRLF file matches an old text written with LF, and keeps its CRLF', async (t) => {
  const dir = tempDir(t);
  await writeTree(dir, { 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
  const ctx = context(dir);
  const tool = textEditorTool();
  const rep = { command: 'str_replace' as const, path: 'w.txt', old_str: 'one\ntwo\n', new_str: 'one\n2\n' };
  assert.deepEqual(await tool.lookup!(rep, ctx), { status: 'not-done' });
  assert.equal((await callTool(tool, rep, ctx)).isError, undefined);
  assert.equal(await read(dir, 'w.txt'), 'one\r\n2\r\nthree\r\n');
  assert.equal((await tool.lookup!(rep, ctx)).status, 'done');
});
