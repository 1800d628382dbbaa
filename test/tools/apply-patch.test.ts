/**
 * apply_patch (OpenAI's V4A patch): updates by context without line numbers, adds files, and
 * refuses a malformed patch, a change that does not match, Delete File and protected or outside
 * paths with a tool error naming the problem, nothing written (not even the files before it).
 * Its lookup answers done, not done, or throws (a patch cut between two files).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { applyPatchTool } from '../../src/tools/apply-patch';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const CALC = `'use strict';\nfunction divide(a, b) {\n  return a / b;\n}\n\nfunction times(a, b) {\n  return a * b;\n}\nmodule.exports = { divide, times };\n`;
const PATCH = `*** Begin Patch
*** Update File: src/calc.js
@@ function divide(a, b) {
-  return a / b;
+  if (b === 0) throw new RangeError('divide by zero');
+  return a / b; // b checked
 }
*** Add File: test/calc.test.js
+const { divide } = require('../src/calc');
+divide(1, 0);
*** End Patch`;
const FIXED = CALC.replace('  return a / b;', "  if (b === 0) throw new RangeError('divide by zero');\n  return a / b; // b checked");

async function ws(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const dir = tempDir(t);
  await writeTree(dir, { 'src/calc.js': CALC, 'node_modules/m/index.js': 'x\n' });
  return dir;
}
const read = (dir: string, rel = 'src/calc.js') => fs.readFile(path.join(dir, ...rel.split('/')), 'utf8');

test('apply_patch updates by context and adds a file, recording both', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const tool = applyPatchTool();
  assert.equal(tool.vendor, 'openai');
  assert.notEqual(tool.idempotent, true);
  const out = await callTool(tool, { input: PATCH }, ctx);
  assert.deepEqual(out, { content: 'applied patch: updated src/calc.js (+2 -1), added test/calc.test.js' });
  assert.equal(await read(dir), FIXED);
  assert.equal(await read(dir, 'test/calc.test.js'), "const { divide } = require('../src/calc');\ndivide(1, 0);\n");
  assert.deepEqual(
    ctx.writes.map((w) => w.rel),
    ['src/calc.js', 'test/calc.test.js'],
  );
  assert.deepEqual(tool.writes!({ input: PATCH }, dir), ['src/calc.js', 'test/calc.test.js']);
});

test('apply_patch: the @@ line is found first, so the right one of two equal lines changes; trailing blanks are forgiven', async (t) => {
  const dir = tempDir(t);
  await writeTree(dir, { 'a.js': 'function f() {\n  return 1;\n}\nfunction g() {\n  return 1;  \n}\n' });
  const r = await callTool(
    applyPatchTool(),
    { input: '*** Begin Patch\n*** Update File: a.js\n@@ function g() {\n-  return 1;\n+  return 2;\n*** End Patch\n' },
    context(dir),
  );
  assert.equal(r.isError, undefined, r.content);
  assert.equal(await read(dir, 'a.js'), 'function f() {\n  return 1;\n}\nfunction g() {\n  return 2;\n}\n');
});

test('apply_patch: a malformed or mismatched patch is a tool error naming what is wrong, and nothing is written', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const bad = PATCH.replace(' }\n*** Add', ' }\nnope\n*** Add');
  for (const [input, re] of [
    ['--- a/src/calc.js\n+++ b/src/calc.js\n', /must start with "\*\*\* Begin Patch"/],
    ['*** Begin Patch\n*** Update File: src/calc.js\n-  return a / b;\n+  return a;\n', /must end with "\*\*\* End Patch"/],
    [bad, /line 8 of the changes to "src\/calc.js" must start with " ", "-", "\+" or "@@"; it is "nope"/],
    [
      PATCH.replace('-  return a / b;', '-  return a / c;'),
      /change 1 of "src\/calc.js" does not match the file: its context and "-" lines \(starting " {2}return a \/ c;"\).*The patch applies whole or not at all; nothing was changed, so the patch's other changes \(to test\/calc.test.js\) were not applied either/,
    ],
    [PATCH.replace('@@ function divide(a, b) {', '@@ function modulo(a, b) {'), /its "@@ function modulo\(a, b\) \{" line is not in the file/],
    ['*** Begin Patch\n*** Delete File: src/calc.js\n*** End Patch', /^apply_patch: Delete File is not allowed here: .*; nothing was changed\. /],
    [
      '*** Begin Patch\n*** Add File: src/calc.js\n+x\n*** End Patch',
      /Add File is not allowed over an existing file: "src\/calc.js" exists already; nothing was changed/,
    ],
    [
      '*** Begin Patch\n*** Update File: src/none.js\n-a\n+b\n*** End Patch',
      /the file does not exist; nothing was changed\. Create it with "\*\*\* Add File: src\/none.js"/,
    ],
    ['*** Begin Patch\n*** Add File: node_modules/m/new.js\n+x\n*** End Patch', /refusing to write "node_modules\/m\/new.js"/],
    ['*** Begin Patch\n*** Add File: ../out.js\n+x\n*** End Patch', /outside the workspace/],
    ['*** Begin Patch\n*** Add File: x.js\n+x\n*** Add File: x.js\n+y\n*** End Patch', /names "x.js" twice/],
  ] as [string, RegExp][]) {
    const r = await callTool(applyPatchTool(), { input }, ctx);
    assert.equal(r.isError, true, input);
    assert.match(r.content, /^apply_patch: /);
    assert.match(r.content, re);
  }
  // The update of src/calc.js was fine; the add after it failed: nothing at all was written.
  const late = PATCH.replace('*** Add File: test/calc.test.js', '*** Add File: node_modules/m/new.js');
  assert.equal((await callTool(applyPatchTool(), { input: late }, ctx)).isError, true);
  assert.equal(await read(dir), CALC);
  await assert.rejects(fs.stat(path.join(dir, 'test')));
  assert.deepEqual(ctx.writes, []);
});

test('apply_patch lookup: not done before, done after, and unsure when only one of its files is in place', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const tool = applyPatchTool();
  assert.deepEqual(await tool.lookup!({ input: PATCH }, ctx), { status: 'not-done' });
  // cut between its two files: the update made, the add not
  await fs.writeFile(path.join(dir, 'src', 'calc.js'), FIXED);
  await assert.rejects(tool.lookup!({ input: PATCH }, ctx), /cannot tell whether the patch was applied: src\/calc.js done, test\/calc.test.js not-done/);
  await fs.writeFile(path.join(dir, 'src', 'calc.js'), CALC);
  await tool.run({ input: PATCH }, ctx);
  const found = await tool.lookup!({ input: PATCH }, ctx);
  assert.equal(found.status, 'done');
  assert.deepEqual(
    ctx.writes.map((w) => w.rel),
    ['src/calc.js', 'test/calc.test.js', 'src/calc.js', 'test/calc.test.js'],
  );
  // the added file changed since: unsure
  await fs.writeFile(path.join(dir, 'test', 'calc.test.js'), 'other\n');
  await assert.rejects(tool.lookup!({ input: PATCH }, ctx), /test\/calc.test.js unsure/);
  // a patch the tool refuses wrote nothing: not done (running it again gives the same error)
  assert.deepEqual(await tool.lookup!({ input: 'not a patch' }, ctx), { status: 'not-done' });
});

test('apply_patch describe(): a one-file patch shows its before/after diff', async (t) => {
  const dir = await ws(t);
  const input = '*** Begin Patch\n*** Update File: src/calc.js\n-  return a * b;\n+  return b * a;\n*** End Patch';
  const d = applyPatchTool({ workspace: dir }).describe!({ input });
  assert.equal(d.title, 'Apply patch (1 file)');
  assert.deepEqual(d.diff, { path: 'src/calc.js', before: CALC, after: CALC.replace('a * b', 'b * a') });
});
