/**
 * Files the tools must not wait on or load whole: a named pipe (FIFO) is refused wherever a
 * tool reads or writes a file, never opened for a blocking read; a huge file is read only as
 * far as it is shown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { readFileTool, READ_CAP, WINDOW_LINES } from '../../src/tools/read-file';
import { searchFilesTool } from '../../src/tools/search-files';
import { writeFileTool } from '../../src/tools/write-file';
import { codePatchTool } from '../../src/tools/code-patch';
import { listFilesTool } from '../../src/tools/list-files';
import { anyTool, context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const posix = process.platform !== 'win32';
const FIFO_REFUSED = /"pipe" is a named pipe \(FIFO\); the tools only read and write regular files/;

async function withFifo(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const ws = tempDir(t);
  await writeTree(ws, { 'src/a.js': 'hit\n' });
  execFileSync('mkfifo', [path.join(ws, 'pipe')]);
  return ws;
}

test('read_file, code_patch and write_file refuse a named pipe instead of waiting on it', { skip: !posix && 'no mkfifo' }, async (t) => {
  const ws = await withFifo(t);
  for (const [tool, args] of [
    [readFileTool(), { path: 'pipe' }],
    [codePatchTool(), { path: 'pipe', patch: '@@ -1 +1 @@\n-a\n+b\n' }],
    [writeFileTool(), { path: 'pipe', content: 'x' }],
    [searchFilesTool(), { query: 'hit', path: 'pipe' }],
  ] as const) {
    const ctx = context(ws);
    const out = await callTool(anyTool(tool), args, ctx);
    assert.equal(out.isError, true, tool.name);
    assert.match(out.content, FIFO_REFUSED, tool.name);
    assert.equal(ctx.writes.length, 0);
  }
  assert.ok((await fs.lstat(path.join(ws, 'pipe'))).isFIFO(), 'the pipe is still a pipe');
});

test('search_files over a folder skips a named pipe; list_files still lists it', { skip: !posix && 'no mkfifo' }, async (t) => {
  const ws = await withFifo(t);
  for (const ripgrep of [{}, { path: 'off' }]) {
    assert.equal(
      (await searchFilesTool({ ripgrep }).run({ query: 'hit' }, context(ws))).content,
      '1 matching line in 1 file for the text "hit" in .: all shown\nsrc/a.js\n  1: hit',
    );
  }
  assert.equal((await listFilesTool().run({}, context(ws))).content, '.: 2 files, 1 folders; nothing left out\npipe\nsrc/\nsrc/a.js');
});

test('describe() of a write to a named pipe shows no diff and does not wait on it', { skip: !posix && 'no mkfifo' }, async (t) => {
  const ws = await withFifo(t);
  assert.equal(writeFileTool({ workspace: ws }).describe!({ path: 'pipe', content: 'x' }).diff, undefined);
  assert.equal(codePatchTool({ workspace: ws }).describe!({ path: 'pipe', patch: '@@ -1 +1 @@\n-a\n+b\n' }).diff, undefined);
});

test('read_file of a 1 GiB file shows its first lines, its real size, and stops counting lines', async (t) => {
  const ws = tempDir(t);
  const file = path.join(ws, 'huge.log');
  const GIB = 1024 ** 3;
  await fs.writeFile(file, 'line\n'.repeat(Math.ceil((READ_CAP + 10) / 5)));
  await fs.truncate(file, GIB); // sparse: costs no disk
  const out = await readFileTool().run({ path: 'huge.log' }, context(ws));
  assert.equal(out.isError, undefined);
  const lines = out.content.split('\n');
  assert.equal(lines[0], `huge.log: lines 1-${WINDOW_LINES} of at least 20002 (${GIB} bytes; not counted further); not shown: lines ${WINDOW_LINES + 1}-end`);
  assert.equal(lines[1], '1\tline');
  assert.equal(lines.length, WINDOW_LINES + 1);
});

test('read_file cuts a line longer than the byte cap at a character boundary and says so', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { 'u.txt': 'a'.repeat(READ_CAP - 1) + 'é' + 'b'.repeat(50) });
  const out = await readFileTool().run({ path: 'u.txt' }, context(ws));
  assert.equal(
    out.content,
    `u.txt: lines 1-1 of 1; the whole file; line 1 is longer than ${READ_CAP} bytes: only its first ${READ_CAP - 1} bytes are shown\n1\t${'a'.repeat(READ_CAP - 1)}`,
  );
});
