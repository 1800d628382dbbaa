/**
 * A state folder inside the workspace (`--state .triage`) is outside the workspace for every
 * file tool: listing and search do not show it, read, write and patch refuse it, also through
 * a symlink inside the workspace. A state folder that holds the workspace hides nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { listFilesTool } from '../../src/tools/list-files';
import { readFileTool } from '../../src/tools/read-file';
import { searchFilesTool } from '../../src/tools/search-files';
import { writeFileTool } from '../../src/tools/write-file';
import { codePatchTool } from '../../src/tools/code-patch';
import { triageTools } from '../../src/tools';
import { TrackerClient } from '../../src/tracker/client';
import { anyTool, context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const ISSUES = '{"version":1,"issues":[{"number":1,"title":"filed"}]}\n';

async function withState(t: Parameters<typeof tempDir>[0]): Promise<{ ws: string; state: string }> {
  const ws = tempDir(t);
  const state = path.join(ws, '.triage');
  await writeTree(ws, {
    'src/a.js': 'const filed = 1;\n',
    '.triage/tracker/issues.json': ISSUES,
    '.triage/runs/r1.json': '{"filed": true}\n',
  });
  return { ws, state };
}

const STATE_REFUSED = /is in the run's state folder, which is not part of the workspace/;

test('list_files and search_files do not show a state folder inside the workspace', async (t) => {
  const { ws, state } = await withState(t);
  const o = { hidden: [state] };
  assert.equal((await listFilesTool(o).run({}, context(ws))).content, '.: 1 files, 1 folders; nothing left out\nsrc/\nsrc/a.js');
  // ripgrep (on PATH in CI and here) and our own search both leave it out
  for (const ripgrep of [{}, { path: 'off' }]) {
    assert.equal(
      (await searchFilesTool({ ...o, ripgrep }).run({ query: 'filed' }, context(ws))).content,
      '1 matching line in 1 file for the text "filed" in .: all shown\nsrc/a.js\n  1: const filed = 1;',
    );
  }
  for (const [tool, args] of [
    [listFilesTool(o), { path: '.triage' }],
    [listFilesTool(o), { path: '.triage/tracker' }],
    [searchFilesTool(o), { query: 'filed', path: '.triage' }],
    [searchFilesTool(o), { query: 'filed', path: '.triage/tracker/issues.json' }],
  ] as const) {
    const out = await callTool(anyTool(tool), args, context(ws));
    assert.equal(out.isError, true, `${tool.name} ${JSON.stringify(args)}`);
    assert.match(out.content, STATE_REFUSED);
  }
});

test('read_file, write_file and code_patch refuse the state folder, and its files stay as they were', async (t) => {
  const { ws, state } = await withState(t);
  const o = { hidden: [state] };
  const cases = [
    [readFileTool(o), { path: '.triage/tracker/issues.json' }],
    [writeFileTool(o), { path: '.triage/tracker/issues.json', content: '[]' }],
    [writeFileTool(o), { path: '.triage/new.txt', content: 'x' }],
    [codePatchTool(o), { path: '.triage/runs/r1.json', patch: '@@ -1 +1 @@\n-{"filed": true}\n+{"filed": false}\n' }],
    [readFileTool(o), { path: 'src/../.triage/runs/r1.json' }],
  ] as const;
  for (const [tool, args] of cases) {
    const ctx = context(ws);
    const out = await callTool(anyTool(tool), args, ctx);
    assert.equal(out.isError, true, `${tool.name} ${JSON.stringify(args)}`);
    assert.match(out.content, STATE_REFUSED);
    assert.equal(ctx.writes.length, 0);
  }
  assert.equal(await fs.readFile(path.join(state, 'tracker', 'issues.json'), 'utf8'), ISSUES);
  assert.equal(await fs.readFile(path.join(state, 'runs', 'r1.json'), 'utf8'), '{"filed": true}\n');
  await assert.rejects(fs.access(path.join(state, 'new.txt')));
  assert.throws(() => writeFileTool(o).writes!({ path: '.triage/tracker/issues.json', content: '[]' }, ws), STATE_REFUSED);
});

test('a symlink inside the workspace does not lead into the state folder; describe() shows none of it', async (t) => {
  const { ws, state } = await withState(t);
  const o = { hidden: [state], workspace: ws };
  await fs.symlink('.triage/tracker', path.join(ws, 'trk'));
  await fs.symlink('.triage/tracker/issues.json', path.join(ws, 'issues.json'));
  for (const [tool, args] of [
    [readFileTool(o), { path: 'trk/issues.json' }],
    [readFileTool(o), { path: 'issues.json' }],
    [writeFileTool(o), { path: 'trk/issues.json', content: '[]' }],
    [writeFileTool(o), { path: 'issues.json', content: '[]' }],
    [searchFilesTool(o), { query: 'filed', path: 'issues.json' }],
  ] as const) {
    const out = await callTool(anyTool(tool), args, context(ws));
    assert.equal(out.isError, true, `${tool.name} ${JSON.stringify(args)}`);
    assert.match(out.content, STATE_REFUSED);
  }
  assert.equal(writeFileTool(o).describe!({ path: 'issues.json', content: '[]' }).diff, undefined);
  assert.equal(await fs.readFile(path.join(state, 'tracker', 'issues.json'), 'utf8'), ISSUES);
});

test('the tool set built with the state folder hides it from every file tool', async (t) => {
  const { ws, state } = await withState(t);
  const tools = new Map(triageTools({ tracker: new TrackerClient('http://127.0.0.1:9'), keys: true, workspace: ws, hidden: [state] }).map((x) => [x.name, x]));
  assert.equal((await tools.get('list_files')!.run({}, context(ws))).content, '.: 1 files, 1 folders; nothing left out\nsrc/\nsrc/a.js');
  for (const name of ['read_file', 'write_file', 'code_patch']) {
    const out = await callTool(
      tools.get(name)!,
      { path: '.triage/tracker/issues.json', ...(name === 'write_file' ? { content: '[]' } : name === 'code_patch' ? { patch: '@@ -1 +1 @@\n-a\n+b\n' } : {}) },
      context(ws),
    );
    assert.match(out.content, STATE_REFUSED, name);
  }
});

test('a state folder that holds the workspace (the default <state>/workspaces/<run>) hides nothing', async (t) => {
  const state = tempDir(t);
  const ws = path.join(state, 'workspaces', 'r1');
  await writeTree(ws, { 'src/a.js': 'x\n' });
  const o = { hidden: [state, path.join(state, 'workspaces')] };
  assert.equal((await listFilesTool(o).run({}, context(ws))).content, '.: 1 files, 1 folders; nothing left out\nsrc/\nsrc/a.js');
  assert.deepEqual(await readFileTool(o).run({ path: 'src/a.js' }, context(ws)), { content: 'src/a.js: lines 1-1 of 1; the whole file\n1\tx' });
  assert.match((await searchFilesTool(o).run({ query: 'x' }, context(ws))).content, /^1 matching line in 1 file/);
  assert.equal((await writeFileTool(o).run({ path: 'src/b.js', content: 'y\n' }, context(ws))).isError, undefined);
});
