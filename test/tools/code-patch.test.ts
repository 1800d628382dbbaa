import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { codePatchTool } from '../../src/tools/code-patch';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const CALC = `'use strict';
function divide(a, b) {
  return a / b;
}
module.exports = { divide };
`;
const FIXED = `'use strict';
function divide(a, b) {
  if (b === 0) throw new RangeError('divide by zero');
  return a / b;
}
module.exports = { divide };
`;
const PATCH = `--- a/src/calc.js
+++ b/src/calc.js
@@ -1,5 +1,6 @@
 'use strict';
 function divide(a, b) {
+  if (b === 0) throw new RangeError('divide by zero');
   return a / b;
 }
 module.exports = { divide };
`;

async function ws(t: Parameters<typeof tempDir>[0], calc = CALC): Promise<string> {
  const dir = tempDir(t);
  await writeTree(dir, { 'src/calc.js': calc });
  return dir;
}
const read = (dir: string) => fs.readFile(path.join(dir, 'src', 'calc.js'), 'utf8');

test('code_patch applies a unified diff, records the write, and counts the lines', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const out = await codePatchTool().run({ path: 'src/calc.js', patch: PATCH }, ctx);
  assert.deepEqual(out, { content: 'patched src/calc.js: +1 -0 lines' });
  assert.equal(await read(dir), FIXED);
  assert.deepEqual(
    ctx.writes.map((w) => [w.rel, w.content.toString('utf8')]),
    [['src/calc.js', FIXED]],
  );
});

test('code_patch is not idempotent and does not need approval', () => {
  const tool = codePatchTool();
  assert.notEqual(tool.idempotent, true);
  assert.notEqual(tool.readOnly, true);
  assert.equal(typeof tool.lookup, 'function');
});

test('code_patch takes hunks without --- / +++ headers, replacements, and a fenced patch', async (t) => {
  const dir = await ws(t);
  const patch = '```diff\n@@ -2,3 +2,3 @@\n function divide(a, b) {\n-  return a / b;\n+  return b === 0 ? NaN : a / b;\n }\n```\n';
  const out = await codePatchTool().run({ path: 'src/calc.js', patch }, context(dir));
  assert.deepEqual(out, { content: 'patched src/calc.js: +1 -1 lines' });
  assert.match(await read(dir), /return b === 0 \? NaN : a \/ b;/);
});

test('code_patch forgives miscounted @@ line counts (the context must still match exactly)', async (t) => {
  const dir = await ws(t);
  const patch = PATCH.replace('@@ -1,5 +1,6 @@', '@@ -1,4 +1,9 @@');
  const out = await codePatchTool().run({ path: 'src/calc.js', patch }, context(dir));
  assert.equal(out.content, 'patched src/calc.js: +1 -0 lines');
  assert.equal(await read(dir), FIXED);
});

test('a patch that does not apply is an error result naming the hunk, and nothing is written', async (t) => {
  const dir = await ws(t);
  const two = `@@ -1,2 +1,2 @@
-'use strict';
+"use strict";
 function divide(a, b) {
@@ -4,2 +4,2 @@
 }
-module.exports = { divide, multiply };
+module.exports = { divide };
`;
  const ctx = context(dir);
  const out = await codePatchTool().run({ path: 'src/calc.js', patch: two }, ctx);
  assert.equal(out.isError, true);
  assert.match(out.content, /does not apply to src\/calc.js: hunk 2 of 2 \(@@ -4,2 \+4,2 @@\)/);
  assert.equal(await read(dir), CALC);
  assert.equal(ctx.writes.length, 0);
});

test('code_patch: bad arguments, a missing file, several files, no hunks are error results', async (t) => {
  const dir = await ws(t);
  const twoFiles = `${PATCH}--- a/other.js\n+++ b/other.js\n@@ -1 +1 @@\n-x\n+y\n`;
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 'src/calc.js' }, /"patch" is required/],
    [{ path: 'src/calc.js', patch: ['x'] }, /"patch" should be a string, found an array/],
    [{ path: 42, patch: PATCH }, /"path" should be a string/],
    [{ path: 'src/nope.js', patch: PATCH }, /"src\/nope.js" does not exist; create new files with write_file/],
    [{ path: '../calc.js', patch: PATCH }, /outside the workspace/],
    [{ path: 'src/calc.js', patch: 'just some words' }, /no hunks/],
    [{ path: 'src/calc.js', patch: twoFiles }, /changes 2 files/],
    [{ path: 'src/calc.js', patch: '@@ -1 +1 @@\n garbage\n?what\n' }, /not a valid unified diff/],
  ];
  for (const [args, re] of cases) {
    const out = await callTool(codePatchTool(), args, context(dir));
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(out.content, re);
  }
  assert.equal(await read(dir), CALC);
});

test('lookup: before the patch -> not-done', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  assert.deepEqual(await codePatchTool().lookup!({ path: 'src/calc.js', patch: PATCH }, ctx), { status: 'not-done' });
  assert.equal(ctx.writes.length, 0);
});

test('lookup: patch already in the file -> done, the same text as a fresh success, and the bytes recorded', async (t) => {
  const dir = await ws(t);
  const fresh = await codePatchTool().run({ path: 'src/calc.js', patch: PATCH }, context(dir));
  const ctx = context(dir);
  const answer = await codePatchTool().lookup!({ path: 'src/calc.js', patch: PATCH }, ctx);
  assert.deepEqual(answer, { status: 'done', output: fresh });
  assert.deepEqual(
    ctx.writes.map((w) => [w.rel, w.content.toString('utf8')]),
    [['src/calc.js', FIXED]],
  );
  assert.equal(await read(dir), FIXED, 'the lookup does not apply it again');
});

test('lookup: neither forward nor reverse applies (the file changed otherwise) -> throws, so a person decides', async (t) => {
  const dir = await ws(t, CALC.replace('return a / b;', 'return a * b;'));
  await assert.rejects(
    codePatchTool().lookup!({ path: 'src/calc.js', patch: PATCH }, context(dir)),
    /cannot tell whether the patch of src\/calc.js was applied: it applies neither/,
  );
});

test('lookup: both directions apply -> throws', async (t) => {
  // Adds "x" after a line "x": forwards it fits at the top, backwards it matches the pair already there.
  const dir = await ws(t, 'x\nx\n');
  const patch = '@@ -1,1 +1,2 @@\n x\n+x\n';
  await assert.rejects(codePatchTool().lookup!({ path: 'src/calc.js', patch }, context(dir)), /it would apply both forwards and backwards/);
});

test('lookup: the file is gone -> throws', async (t) => {
  const dir = await ws(t);
  await fs.rm(path.join(dir, 'src', 'calc.js'));
  await assert.rejects(codePatchTool().lookup!({ path: 'src/calc.js', patch: PATCH }, context(dir)), /does not exist now/);
});

test('describe() shows the patch, and the before/after when it knows the workspace', async (t) => {
  const dir = await ws(t);
  const d = codePatchTool({ workspace: dir }).describe!({ path: 'src/calc.js', patch: PATCH });
  assert.equal(d.title, 'Patch src/calc.js');
  assert.equal(d.detail, PATCH);
  assert.deepEqual(d.diff, { path: 'src/calc.js', before: CALC, after: FIXED });
  assert.equal(codePatchTool().describe!({ path: 'src/calc.js', patch: PATCH }).diff, undefined);
});
