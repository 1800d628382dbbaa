import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileTool } from '../../src/tools/write-file';
import { codePatchTool } from '../../src/tools/code-patch';
import { readFileTool } from '../../src/tools/read-file';
import { PROTECTED_PATHS, protectedBy } from '../../src/tools/protected-paths';
import { foldName } from '../../src/workspace/fold-name';
import { anyTool, context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const PATCH = '@@ -1 +1 @@\n-old\n+new\n';

/** Every path write_file and code_patch must refuse, with the entry that names the reason. */
const REFUSED: [string, string][] = [
  ['.vscode/settings.json', '.vscode'],
  ['.vscode/tasks.json', '.vscode'],
  ['.github/workflows/ci.yml', '.github/workflows'],
  ['.github/actions/setup/action.yml', '.github/actions'],
  ['.git/config', '.git'],
  ['.git/hooks/pre-commit', '.git'],
  ['.gitattributes', '.git*'],
  ['.gitmodules', '.git*'],
  ['.gitignore', '.git*'],
  ['sub/.gitattributes', '.git*'],
  ['.devcontainer/devcontainer.json', '.devcontainer'],
  ['.devcontainer.json', '.devcontainer.json'],
  ['.idea/workspace.xml', '.idea'],
  ['.npmrc', '.npmrc'],
  ['.yarnrc', '.yarnrc'],
  ['.yarnrc.yml', '.yarnrc.yml'],
  ['.yarn/plugins/x.cjs', '.yarn'],
  ['.pnpmfile.cjs', '.pnpmfile.cjs'],
  ['.envrc', '.envrc'],
  ['.env', '.env*'],
  ['.env.local', '.env*'],
  ['.husky/pre-commit', '.husky'],
  ['.pre-commit-config.yaml', '.pre-commit-config.yaml'],
  ['app.code-workspace', '*.code-workspace'],
  ['node_modules/x/index.js', 'node_modules'],
  ['packages/a/node_modules/x/index.js', 'node_modules'],
  ['packages/a/.vscode/settings.json', '.vscode'],
];

/** Spellings a case-insensitive (or Windows) file system takes for a protected name (item 9). */
const SPELLINGS: [string, string][] = [
  ['.GIT/config', '.git'],
  ['.Git/hooks/post-checkout', '.git'],
  ['.git./x', '.git'],
  ['.git /x', '.git'],
  ['.git. . /x', '.git'],
  ['.git::$INDEX_ALLOCATION/config', '.git'],
  ['.g\u200cit/config', '.git'],
  ['Node_Modules/x', 'node_modules'],
  ['NODE_MODULES./x', 'node_modules'],
  ['.VSCode/settings.json', '.vscode'],
  ['.vscode ./settings.json', '.vscode'],
  ['.GitHub/Workflows/ci.yml', '.github/workflows'],
  ['.GITATTRIBUTES', '.git*'],
  ['.NPMRC.', '.npmrc'],
  ['.Env.Local ', '.env*'],
];

test('write_file and code_patch refuse every file that configures a tool or the editor, naming the path and why; nothing is written', async (t) => {
  const ws = tempDir(t);
  for (const [rel, pattern] of [...REFUSED, ...SPELLINGS]) {
    for (const [tool, args] of [
      [writeFileTool(), { path: rel, content: 'x' }],
      [codePatchTool(), { path: rel, patch: PATCH }],
    ] as const) {
      const ctx = context(ws);
      const out = await callTool(anyTool(tool), args, ctx);
      assert.equal(out.isError, true, `${tool.name} ${rel}`);
      assert.ok(out.content.startsWith(`${tool.name}: refusing to write "${rel}": `), `${tool.name} ${rel}: ${out.content}`);
      const entry = PROTECTED_PATHS.find((p) => p.pattern === pattern)!;
      assert.ok(out.content.includes(entry.why), `${rel}: ${out.content}`);
      assert.match(out.content, /not the agent's to change/);
      assert.equal(ctx.writes.length, 0);
    }
  }
  assert.deepEqual(await fs.readdir(ws), [], 'no file and no folder was made');
});

test('the write tools declare no write to a protected path (so nothing is kept for undo either)', async (t) => {
  const ws = tempDir(t);
  for (const tool of [writeFileTool(), codePatchTool()]) {
    assert.throws(() => tool.writes!({ path: '.vscode/settings.json', content: 'x', patch: PATCH }, ws), /refusing to write ".vscode\/settings.json"/);
  }
});

test('an existing protected file is refused as well, and stays as it was; reading it stays allowed', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { '.vscode/settings.json': 'old\n', '.gitattributes': 'old\n' });
  for (const rel of ['.vscode/settings.json', '.gitattributes']) {
    assert.equal((await writeFileTool().run({ path: rel, content: 'new\n' }, context(ws))).isError, true);
    assert.equal((await codePatchTool().run({ path: rel, patch: PATCH }, context(ws))).isError, true);
    assert.equal(await fs.readFile(path.join(ws, rel), 'utf8'), 'old\n');
    assert.deepEqual(await readFileTool().run({ path: rel }, context(ws)), { content: `${rel}: lines 1-1 of 1; the whole file\n1\told` });
  }
});

test('a symlink inside the workspace does not lead a write into a protected folder', async (t) => {
  const ws = tempDir(t);
  await writeTree(ws, { '.vscode/settings.json': 'old\n', '.git/HEAD': 'ref\n' });
  await fs.symlink('.vscode', path.join(ws, 'editor'));
  await fs.symlink('.git', path.join(ws, 'docs'));
  await fs.symlink('.vscode/settings.json', path.join(ws, 'settings.json'));
  for (const [rel, via] of [
    ['editor/settings.json', '.vscode/settings.json'],
    ['docs/hooks/pre-commit', '.git/hooks/pre-commit'],
    ['settings.json', '.vscode/settings.json'],
  ]) {
    const out = await writeFileTool().run({ path: rel, content: 'x' }, context(ws));
    assert.equal(out.isError, true, rel);
    assert.ok(out.content.includes(`refusing to write "${rel}": it leads through a symlink to "${via}"; files inside .`), out.content);
  }
  assert.equal(await fs.readFile(path.join(ws, '.vscode', 'settings.json'), 'utf8'), 'old\n');
  await assert.rejects(fs.access(path.join(ws, '.git', 'hooks')));
});

test('ordinary files next to the protected ones stay writable', async (t) => {
  const ws = tempDir(t);
  for (const rel of ['.github/ISSUE_TEMPLATE/bug.md', 'src/env.ts', 'docs/git.md', 'src/.gitlike/x.js', 'vscode/notes.md', 'src/node_modules.ts']) {
    const out = await writeFileTool().run({ path: rel, content: 'x' }, context(ws));
    assert.equal(out.isError, undefined, `${rel}: ${out.content}`);
  }
});

test('foldName compares names as case-insensitive file systems do', () => {
  assert.equal(foldName('.GIT'), '.git');
  assert.equal(foldName('.git. .'), '.git');
  assert.equal(foldName('.git::$INDEX_ALLOCATION'), '.git');
  assert.equal(foldName('.g\u200dit'), '.git');
  assert.equal(foldName('\u017f'), 's', 'a long s is an S once upper-cased');
  assert.equal(protectedBy('src/index.js'), undefined);
  assert.equal(protectedBy('.github/dependabot.yml'), undefined);
});
