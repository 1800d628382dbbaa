/**
 * str_replace: the one occurrence of an exact text replaced and recorded in the ledger; `old`
 * occurring twice or never, a protected, hidden or outside path: a tool error naming what is
 * wrong, nothing written. Its lookup answers done, not done, or throws (a person decides).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { strReplaceTool } from '../../src/tools/str-replace';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';

const CALC = `function divide(a, b) {\n  return a / b;\n}\n`;
const OLD = '  return a / b;';
const NEW = "  if (b === 0) throw new RangeError('divide by zero');\n  return a / b;";
const FIXED = `function divide(a, b) {\n${NEW}\n}\n`;

async function ws(t: Parameters<typeof tempDir>[0], files: Record<string, string> = { 'src/calc.js': CALC }): Promise<string> {
  const dir = tempDir(t);
  await writeTree(dir, files);
  return dir;
}
const read = (dir: string, rel = 'src/calc.js') => fs.readFile(path.join(dir, ...rel.split('/')), 'utf8');

test('str_replace replaces the one occurrence and records the write', async (t) => {
  const dir = await ws(t);
  const ctx = context(dir);
  const out = await callTool(strReplaceTool(), { path: 'src/calc.js', old: OLD, new: NEW }, ctx);
  // As Anthropic's tool, the result shows the lines around the edit, numbered.
  assert.deepEqual(out, {
    content:
      "replaced in src/calc.js: 1 line(s) with 2\nlines 1-4 of src/calc.js now:\n1\tfunction divide(a, b) {\n2\t  if (b === 0) throw new RangeError('divide by zero');\n3\t  return a / b;\n4\t}",
  });
  assert.equal(await read(dir), FIXED);
  assert.deepEqual(
    ctx.writes.map((w) => [w.rel, w.content.toString('utf8')]),
    [['src/calc.js', FIXED]],
  );
  const tool = strReplaceTool();
  assert.notEqual(tool.idempotent, true);
  assert.notEqual(tool.readOnly, true);
  assert.equal(tool.vendor, undefined, 'offered to every model');
});

test('str_replace: old twice or never, empty, or the same as new: an error naming it, nothing written', async (t) => {
  const twice = `${CALC}${CALC}`;
  const dir = await ws(t, { 'src/calc.js': twice });
  const ctx = context(dir);
  for (const [args, re] of [
    [{ path: 'src/calc.js', old: OLD, new: NEW }, /occurs 2 times in "src\/calc.js" \(starting on lines 2, 5\); it must occur exactly once/],
    [{ path: 'src/calc.js', old: 'return a * b;', new: NEW }, /does not occur in "src\/calc.js" \(0 occurrences\)/],
    [{ path: 'src/calc.js', old: '', new: NEW }, /the text to replace is empty/],
    [{ path: 'src/calc.js', old: OLD, new: OLD }, /the same as the old text/],
    [{ path: 'src/none.js', old: OLD, new: NEW }, /"src\/none.js" does not exist; create new files with write_file/],
  ] as [Record<string, string>, RegExp][]) {
    const r = await callTool(strReplaceTool(), args, ctx);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.match(r.content, /^str_replace: /);
    assert.match(r.content, re);
  }
  assert.equal(await read(dir), twice);
  assert.deepEqual(ctx.writes, []);
});

test('str_replace refuses protected, hidden and outside paths as write_file does', async (t) => {
  const dir = await ws(t, { 'src/calc.js': CALC, '.git/config': OLD, 'node_modules/m/index.js': OLD, '.triage/runs/r.json': OLD });
  const ctx = context(dir);
  const tool = strReplaceTool({ hidden: [path.join(dir, '.triage')] });
  for (const [p, re] of [
    ['.git/config', /refusing to write ".git\/config"/],
    ['node_modules/m/index.js', /refusing to write "node_modules\/m\/index.js"/],
    ['.triage/runs/r.json', /state folder/],
    ['../outside.js', /outside the workspace/],
  ] as [string, RegExp][]) {
    const r = await callTool(tool, { path: p, old: OLD, new: NEW }, ctx);
    assert.equal(r.isError, true, p);
    assert.match(r.content, re);
  }
  assert.equal(await read(dir, '.git/config'), OLD);
  assert.deepEqual(ctx.writes, []);
});

test('str_replace lookup: done when new is in place and old gone, not done the other way round, else it throws', async (t) => {
  const dir = await ws(t);
  const tool = strReplaceTool();
  const args = { path: 'src/calc.js', old: OLD, new: NEW };
  const ctx = context(dir);
  assert.deepEqual(await tool.lookup!(args, ctx), { status: 'not-done' });
  await fs.writeFile(path.join(dir, 'src', 'calc.js'), FIXED.replace('  return a / b;', '  return a / b; // kept'));
  // both texts present (new contains old): unsure
  await assert.rejects(tool.lookup!(args, ctx), /cannot tell whether the replacement in src\/calc.js was made: both/);
  await fs.writeFile(path.join(dir, 'src', 'calc.js'), 'module.exports = {};\n');
  await assert.rejects(tool.lookup!(args, ctx), /neither the old nor the new text/);
  await fs.rm(path.join(dir, 'src', 'calc.js'));
  await assert.rejects(tool.lookup!(args, ctx), /does not exist now/);
  // a replacement whose new text does not hold the old one: done once made, and the found bytes recorded
  const dir2 = await ws(t);
  const ctx2 = context(dir2);
  const swap = { path: 'src/calc.js', old: 'a / b', new: 'a * b' };
  assert.deepEqual(await tool.lookup!(swap, ctx2), { status: 'not-done' });
  await tool.run(swap, ctx2);
  const found = await tool.lookup!(swap, ctx2);
  assert.equal(found.status, 'done');
  assert.equal(ctx2.writes.length, 2, 'the run and the lookup each recorded the file');
  assert.equal(ctx2.writes[1].content.toString('utf8'), CALC.replace('a / b', 'a * b'));
});

test('str_replace describe(): the before/after diff of the file', async (t) => {
  const dir = await ws(t);
  const d = strReplaceTool({ workspace: dir }).describe!({ path: 'src/calc.js', old: OLD, new: NEW });
  assert.equal(d.title, 'Replace in src/calc.js');
  assert.deepEqual(d.diff, { path: 'src/calc.js', before: CALC, after: FIXED });
});
