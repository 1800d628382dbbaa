import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tasks, findTask, mainTask } from '../../../src/triage/tasks/catalog';
import { findPackageRoot } from '../../../src/triage/tasks/package-root';
import { BadInputError } from '../../../src/core/errors';
import { tempDir } from '../../support/temp-dir';

test('the catalog has at least three tasks, exactly one of them the main one', () => {
  const all = tasks();
  assert.ok(all.length >= 3, `${all.length} tasks`);
  assert.equal(all.filter((t) => t.main).length, 1);
  assert.equal(new Set(all.map((t) => t.name)).size, all.length, 'task names are unique');
  assert.equal(all[0].main, true, 'the main task is listed first');
});

test("the main task is the chapter's m1-done-after-delete, with at least 16 checks", () => {
  const m = mainTask();
  assert.equal(m.name, 'm1-done-after-delete');
  assert.ok(m.checkNames.length >= 16, `${m.checkNames.length} checks`);
  assert.ok(m.groups.length >= 2);
});

test('a batch task has at least five crash groups, and a small one has one or two', () => {
  assert.ok(findTask('batch-parser').groups.length >= 5);
  assert.ok(tasks().some((t) => t.groups.length >= 1 && t.groups.length <= 2));
});

test('findTask of an unknown name is a BadInputError listing the known names', () => {
  assert.throws(
    () => findTask('no-such-task'),
    (e: unknown) => e instanceof BadInputError && /Unknown task "no-such-task"/.test(e.message) && tasks().every((t) => e.message.includes(t.name)),
  );
});

test('every task points at its bundled sample and recording, with groups that exist in the sample', () => {
  for (const t of tasks()) {
    assert.ok(path.isAbsolute(t.sample) && fs.statSync(t.sample).isDirectory(), `${t.name}: sample ${t.sample}`);
    assert.ok(fs.existsSync(t.recording), `${t.name}: recording ${t.recording}`);
    assert.ok(t.prompt.length > 0 && t.system.length > 0);
    const folders = fs.readdirSync(path.join(t.sample, 'crashes')).sort();
    assert.deepEqual(folders, t.groups.map((g) => g.cause).sort(), `${t.name}: one crash folder per group`);
    for (const g of t.groups) {
      assert.match(g.cause, /^[a-z0-9]+(-[a-z0-9]+)*$/, 'a cause is a slug');
      assert.equal(g.crashes, `crashes/${g.cause}`);
      assert.equal(g.test, `test/regression-${g.cause}.test.js`);
      assert.ok(fs.readdirSync(path.join(t.sample, g.crashes)).length >= 2, `${t.name}/${g.cause}: several reports`);
      assert.ok(fs.existsSync(path.join(t.sample, g.file)), `${t.name}/${g.cause}: ${g.file} exists`);
      assert.ok(!fs.existsSync(path.join(t.sample, g.test)), `${t.name}/${g.cause}: the regression test is the agent's to write`);
    }
  }
});

test('check names are unique, name every group, and match the check list', () => {
  for (const t of tasks()) {
    assert.equal(new Set(t.checkNames).size, t.checkNames.length, `${t.name}: unique check names`);
    assert.deepEqual(
      t.checkNames,
      t.checks.map((c) => c.name),
    );
    for (const g of t.groups) assert.ok(t.checkNames.filter((n) => n.startsWith(`${g.cause}: `)).length >= 5, `${t.name}: checks for ${g.cause}`);
  }
});

test('the package root is found by walking up to package.json beside samples/ (tsc output, a bundle in dist/, an installed .vsix)', (t) => {
  const root = tempDir(t, 'pkgroot-');
  fs.writeFileSync(path.join(root, 'package.json'), '{}');
  fs.mkdirSync(path.join(root, 'samples'));
  fs.mkdirSync(path.join(root, 'dist'));
  fs.mkdirSync(path.join(root, 'out', 'src', 'triage', 'tasks'), { recursive: true });
  // A package.json without samples/ on the way up (e.g. node_modules/some-dep) is skipped.
  fs.mkdirSync(path.join(root, 'node_modules', 'dep', 'lib'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'package.json'), '{}');
  assert.equal(findPackageRoot(path.join(root, 'dist')), root);
  assert.equal(findPackageRoot(path.join(root, 'out', 'src', 'triage', 'tasks')), root);
  assert.equal(findPackageRoot(path.join(root, 'node_modules', 'dep', 'lib')), root);
  assert.equal(findPackageRoot(os.tmpdir()), undefined);
});
