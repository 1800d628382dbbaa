// search_files with ripgrep and with our own walker (issue 20 item 1): the same answers on the
// runner fixtures and on a generated repository with ignored build output, a state folder and
// a symlink that leads out; nothing from an ignored path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { searchFilesTool, type SearchArgs } from '../../src/tools/search-files';
import { findRipgrep } from '../../src/tools/search/find-ripgrep';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const RG = findRipgrep();
const noRg = RG === undefined && 'no ripgrep here (install ripgrep, or set DURABLE_TRIAGE_RG)';
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'repos');

async function both(ws: string, args: SearchArgs, hidden: string[] = []): Promise<{ rg: string; fb: string }> {
  const rg = await callTool(searchFilesTool({ hidden, ripgrep: { path: RG } }), args, context(ws));
  const fb = await callTool(searchFilesTool({ hidden, ripgrep: { path: 'off' } }), args, context(ws));
  return { rg: rg.content, fb: fb.content };
}

async function generated(t: Parameters<typeof tempDir>[0]): Promise<{ ws: string; state: string }> {
  const ws = tempDir(t);
  const files: Record<string, string> = {
    '.gitignore': 'target/\n*.log\n',
    'crates/core/.gitignore': 'generated/\n',
    '.ignore': 'scratch/\n',
    'README.md': 'Parser: parse_config reads the file.\n',
    'debug.log': 'parse_config in a log\n',
  };
  for (let i = 0; i < 60; i++) {
    files[`crates/core/src/m${String(i).padStart(2, '0')}.rs`] =
      `// module ${i}\npub fn f${i}() {}\n${i % 7 === 0 ? 'fn parse_config() -> Config {\n    Config::default()\n}\n' : ''}`;
    files[`target/debug/deps/m${i}.rs`] = 'fn parse_config() {} // generated\n';
    files[`crates/core/generated/g${i}.rs`] = 'parse_config\n';
  }
  for (const d of ['node_modules/x', 'dist', 'build', '.venv/lib', 'vendor/y', 'coverage', '__pycache__', 'scratch', '.git'])
    files[`${d}/hit.js`] = 'parse_config();\n';
  files['.triage/runs/r.json'] = '{"parse_config": 1}\n';
  await writeTree(ws, files);
  const outside = tempDir(t, 'triage-outside-');
  await writeTree(outside, { 'o.rs': 'parse_config outside\n' });
  await fs.symlink(path.join(outside, 'o.rs'), path.join(ws, 'link.rs'));
  await fs.symlink(outside, path.join(ws, 'linkdir'));
  return { ws, state: path.join(ws, '.triage') };
}

test('ripgrep and the fallback give the same answers on a generated repository, none from ignored, hidden or outside paths', { skip: noRg }, async (t) => {
  const { ws, state } = await generated(t);
  const queries: SearchArgs[] = [
    { query: 'parse_config' },
    { query: 'PARSE_CONFIG', case: 'insensitive' },
    { query: 'parse_config', case: 'smart' },
    { query: 'fn \\w+_config\\(', regex: true },
    { query: 'Config', glob: '*.rs', context: 1 },
    { query: 'pub fn', path: 'crates/core/src', glob: 'm0*.rs' },
    { query: 'parse_config', path: 'target' },
  ];
  for (const q of queries) {
    const { rg, fb } = await both(ws, q, [state]);
    assert.equal(rg, fb, JSON.stringify(q));
    if (q.path !== 'target')
      assert.doesNotMatch(
        rg,
        /^(target|node_modules|dist|build|\.venv|vendor|coverage|__pycache__|scratch|\.git|\.triage|linkdir|link\.rs|debug\.log|crates\/core\/generated)\b/m,
        JSON.stringify(q),
      );
  }
  const main = (await both(ws, { query: 'parse_config' }, [state])).rg;
  assert.match(main, /^10 matching lines in 10 files/);
  const inTarget = (await both(ws, { query: 'parse_config', path: 'target' }, [state])).rg;
  assert.match(inTarget, /^60 matching lines in 60 files .*: all shown/);
});

test('both engines refuse a regular expression that does not compile and a glob that matches nothing, naming them', { skip: noRg }, async (t) => {
  const { ws } = await generated(t);
  for (const ripgrep of [{ path: RG }, { path: 'off' }]) {
    const bad = await callTool(searchFilesTool({ ripgrep }), { query: 'fn (', regex: true }, context(ws));
    assert.equal(bad.isError, true);
    assert.match(bad.content, /^search_files: the regular expression "fn \(" does not compile: .*pass "regex": false/s);
    const none = await callTool(searchFilesTool({ ripgrep }), { query: 'x', glob: '*.zig' }, context(ws));
    assert.equal(none.isError, true);
    assert.match(none.content, /the glob "\*\.zig" matches no file searched in \./);
    const literal = await callTool(searchFilesTool({ ripgrep }), { query: 'fn (' }, context(ws));
    assert.match(literal.content, /^no matches for the text "fn \("/);
  }
});

test('ripgrep and the fallback find the same files in every runner fixture', { skip: noRg }, async () => {
  for (const repo of await fs.readdir(FIXTURES)) {
    const ws = path.join(FIXTURES, repo);
    for (const q of [{ query: 'test' }, { query: 'def |function |func ', regex: true }, { query: 'ERROR', case: 'smart' as const }]) {
      const { rg, fb } = await both(ws, q);
      assert.equal(rg, fb, `${repo} ${JSON.stringify(q)}`);
    }
  }
});

test('findRipgrep: "off" turns it off; an explicit path, then DURABLE_TRIAGE_RG, then the bundled copies, then PATH', async (t) => {
  const dir = tempDir(t);
  const mk = async (name: string): Promise<string> => {
    const p = path.join(dir, name);
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, '#!/bin/sh\n', { mode: 0o755 });
    return p;
  };
  const explicit = await mk('explicit/rg');
  const env = await mk('env/rg');
  const bundled = await mk('bundled/rg');
  const onPath = await mk('bin/rg');
  const PATH = path.dirname(onPath);
  assert.equal(findRipgrep({ path: 'off', bundled: [bundled] }, { PATH }), undefined);
  assert.equal(findRipgrep({}, { PATH, DURABLE_TRIAGE_RG: 'off' }), undefined);
  assert.equal(findRipgrep({ path: explicit, bundled: [bundled] }, { PATH, DURABLE_TRIAGE_RG: env }), explicit);
  assert.equal(findRipgrep({ bundled: [bundled] }, { PATH, DURABLE_TRIAGE_RG: env }), env);
  assert.equal(findRipgrep({ path: path.join(dir, 'missing'), bundled: [path.join(dir, 'nope'), bundled] }, { PATH }), bundled);
  assert.equal(findRipgrep({}, { PATH }), onPath);
  assert.equal(findRipgrep({}, { PATH: path.join(dir, 'empty') }), undefined);
});
