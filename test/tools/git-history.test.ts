/**
 * The history tools on a real git repository made here (git init, three commits): the log of a
 * file and of a line range, blame of a range, show of a commit, log -S; the cap with its count;
 * a path outside the workspace, an option as a commit, a range past the end and a folder that
 * is not a repository are tool errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitBlameTool, gitLogSearchTool, gitLogTool, gitShowTool } from '../../src/tools/git-history';
import { gitEnv, OUTPUT_CAP } from '../../src/tools/git-command';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: '',
};

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...ENV, HOME: dir }, encoding: 'utf8' }).trim();
}

async function repo(t: Parameters<typeof tempDir>[0]): Promise<{ dir: string; shas: string[] }> {
  const dir = tempDir(t);
  git(dir, 'init', '-q', '-b', 'main');
  const shas: string[] = [];
  const commit = async (files: Record<string, string>, msg: string, date: string): Promise<void> => {
    await writeTree(dir, files);
    git(dir, 'add', '-A');
    execFileSync('git', ['commit', '-q', '-m', msg], { cwd: dir, env: { ...ENV, HOME: dir, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    shas.push(git(dir, 'rev-parse', '--short', 'HEAD'));
  };
  await commit({ 'src/calc.js': 'function divide(a, b) {\n  if (b === 0) return NaN;\n  return a / b;\n}\n' }, 'calc: divide', '2026-01-02T10:00:00Z');
  await commit({ 'README.md': 'calc\n' }, 'readme', '2026-01-03T10:00:00Z');
  await commit({ 'src/calc.js': 'function divide(a, b) {\n  return a / b;\n}\n' }, 'calc: simpler divide', '2026-01-04T10:00:00Z');
  return { dir, shas };
}

test('the history tools are read-only and offered to every model', () => {
  for (const tool of [gitLogTool(), gitBlameTool(), gitShowTool(), gitLogSearchTool()]) {
    assert.equal(tool.readOnly, true, tool.name);
    assert.equal(tool.vendor, undefined, tool.name);
  }
});

test('git_log of a file and of a line range; git_log_search finds the commit that removed the check', async (t) => {
  const { dir, shas } = await repo(t);
  const ctx = context(dir);
  const log = await callTool(gitLogTool(), { path: 'src/calc.js' }, ctx);
  assert.equal(log.content, `${shas[2]} 2026-01-04 Ada\n    calc: simpler divide\n${shas[0]} 2026-01-02 Ada\n    calc: divide`);
  // the crashing line (2, "return a / b;") came with the first commit; the later one took away the check above it
  const lines = await callTool(gitLogTool(), { path: 'src/calc.js', start_line: 1, end_line: 2 }, ctx);
  assert.match(lines.content, new RegExp(`^${shas[2]} 2026-01-04 Ada\\n    calc: simpler divide\\n`));
  assert.match(lines.content, /- {2}if \(b === 0\) return NaN;/);
  assert.match(lines.content, new RegExp(`\\n${shas[0]} 2026-01-02 Ada\\n    calc: divide\\n`));
  const search = await callTool(gitLogSearchTool(), { text: 'return NaN' }, ctx);
  assert.equal(search.content, `${shas[2]} 2026-01-04 Ada\n    calc: simpler divide\n${shas[0]} 2026-01-02 Ada\n    calc: divide`);
  assert.equal((await callTool(gitLogSearchTool(), { text: 'never written' }, ctx)).content, 'no commit added or removed "never written"');
  assert.equal((await callTool(gitLogTool(), { path: 'src/calc.js', max_count: 1 }, ctx)).content.split('\n').length, 2);
});

test('git_blame of a range and git_show of a commit', async (t) => {
  const { dir, shas } = await repo(t);
  const ctx = context(dir);
  const blame = await callTool(gitBlameTool(), { path: 'src/calc.js', start_line: 2, end_line: 3 }, ctx);
  const rows = blame.content.split('\n');
  assert.equal(rows.length, 2);
  assert.match(rows[0], new RegExp(`^\\^?${shas[0]}\\w* \\(Ada 2026-01-02 2\\)   return a / b;$`));
  assert.match(rows[1], new RegExp(`^\\^?${shas[0]}\\w* \\(Ada 2026-01-02 3\\) }$`));
  const show = await callTool(gitShowTool(), { commit: shas[2] }, ctx);
  assert.match(show.content, /calc: simpler divide/);
  assert.match(show.content, /- {2}if \(b === 0\) return NaN;/);
  const only = await callTool(gitShowTool(), { commit: shas[1], path: 'src/calc.js' }, ctx);
  assert.equal(only.content, `commit ${shas[1]} did not change src/calc.js`);
  const part = await callTool(gitShowTool(), { commit: shas[2], path: 'README.md' }, ctx);
  assert.equal(part.content, `commit ${shas[2]} did not change README.md`);
  const mine = await callTool(gitShowTool(), { commit: shas[1], path: 'README.md' }, ctx);
  assert.match(mine.content, /\+calc/);
});

test('history tools: bad input is a tool error naming it', async (t) => {
  const { dir } = await repo(t);
  const ctx = context(dir);
  for (const [tool, args, re] of [
    [gitBlameTool(), { path: 'src/calc.js', start_line: 2, end_line: 40 }, /^git_blame: end_line 40 is past the end of "src\/calc.js" \(3 lines\)/],
    [gitLogTool(), { path: 'src/none.js', start_line: 1, end_line: 2 }, /^git_log: .*no such file/],
    [gitLogTool(), { path: 'src/calc.js', start_line: 3, end_line: 2 }, /^git_log: end_line 2 is before start_line 3/],
    [gitLogTool(), { path: 'src/calc.js', start_line: 3 }, /give both start_line and end_line/],
    [gitLogTool(), { path: '../elsewhere.js' }, /outside the workspace/],
    [gitShowTool(), { commit: '--output=/tmp/x' }, /^git_show: "--output=\/tmp\/x" is not a commit name/],
    [gitShowTool(), { commit: 'deadbeef' }, /^git_show: git show failed: .*deadbeef/],
  ] as [ReturnType<typeof gitLogTool>, Record<string, unknown>, RegExp][]) {
    const r = await callTool(tool, args, ctx);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.match(r.content, re);
  }
});

test('history tools in a folder that is not a git repository: a clear tool error', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'a.js'), 'x\n');
  // GIT_CEILING_DIRECTORIES keeps git from finding a repository above the temp folder.
  const saved = process.env.GIT_CEILING_DIRECTORIES;
  process.env.GIT_CEILING_DIRECTORIES = path.dirname(dir);
  t.after(() => (saved === undefined ? delete process.env.GIT_CEILING_DIRECTORIES : (process.env.GIT_CEILING_DIRECTORIES = saved)));
  const r = await callTool(gitLogTool(), { path: 'a.js' }, context(dir));
  assert.deepEqual(r, { content: 'git_log: the workspace is not in a git repository, so it has no history to show', isError: true });
});

test('a long output is capped, with a count of what was cut', async (t) => {
  const { dir } = await repo(t);
  const big = Array.from({ length: 4000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
  await writeTree(dir, { 'big.txt': `${big}\n` });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'big');
  const r = await callTool(gitShowTool(), { commit: 'HEAD' }, context(dir));
  const m = /\n\.\.\. \[cut: (\d+) more bytes \((\d+) lines\) not shown; narrow the range or lower max_count\]$/.exec(r.content);
  assert.ok(m, r.content.slice(-200));
  assert.ok(r.content.length <= OUTPUT_CAP + 200);
  assert.ok(Number(m[1]) > 40_000 && Number(m[2]) > 1000);
});

test('git runs without secrets, pager or prompt', () => {
  const env = gitEnv({ PATH: '/bin', GITHUB_TOKEN: 'ghp_x', GIT_DIR: '/elsewhere', PAGER: 'less' });
  assert.equal(env.GITHUB_TOKEN, undefined);
  assert.equal(env.GIT_DIR, undefined);
  assert.equal(env.PAGER, 'cat');
  assert.equal(env.GIT_TERMINAL_PROMPT, '0');
  assert.equal(env.GIT_OPTIONAL_LOCKS, '0');
});
