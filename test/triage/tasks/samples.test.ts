/**
 * The bundled samples are what the catalog says: their own tests pass at the start (the
 * bugs are not covered), and every crash report is what the sample's code really
 * produces for the reported input (same error, same file:line:col in the app's frames).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tasks, findTask } from '../../../src/triage/tasks/catalog';
import { runNodeTests } from '../../../src/triage/testrun';
import { crashSets } from '../../../tools/authoring/crashes';
import { appFrames, isUncaught, runScenario } from '../../../tools/authoring/crash-reports';

for (const t of tasks()) {
  test(`${t.name}: the sample's own tests pass at the start`, async () => {
    const r = await runNodeTests(t.sample);
    assert.equal(r.failed, 0, r.output);
    assert.ok(r.passed >= 3, `${r.passed} tests`);
    assert.equal(r.exitCode, 0);
  });

  test(`${t.name}: the sample is plain JavaScript with no dependencies`, () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(t.sample, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.devDependencies, undefined);
    assert.ok(!fs.existsSync(path.join(t.sample, 'node_modules')));
  });
}

for (const [name, set] of Object.entries(crashSets)) {
  test(`${name}: every crash report is what the sample produces for its input`, () => {
    const task = findTask(name);
    const files = new Set<string>();
    for (const g of task.groups) for (const f of fs.readdirSync(path.join(task.sample, g.crashes))) files.add(`${g.cause}/${f}`);
    assert.deepEqual([...files].sort(), set.scenarios.map((s) => `${s.group}/${s.file}`).sort(), 'one scenario per report file');
    for (const s of set.scenarios) {
      const report = fs.readFileSync(path.join(task.sample, 'crashes', s.group, s.file), 'utf8');
      const now = runScenario(task.sample, s);
      assert.ok(isUncaught(now), `${s.group}/${s.file} still crashes the sample`);
      const frames = appFrames(report, s.installRoot);
      assert.ok(frames.length >= 2, `${s.group}/${s.file} has app frames`);
      assert.deepEqual(appFrames(now.stderr, s.installRoot), frames, `${s.group}/${s.file}: the app's frames are real`);
      const error = /^(\w*Error: .*)$/m.exec(now.stderr)?.[1];
      assert.ok(error && report.includes(error), `${s.group}/${s.file}: same error line (${error})`);
      const top = frames[0].split(':');
      const line = fs.readFileSync(path.join(task.sample, top[0]), 'utf8').split('\n')[Number(top[1]) - 1];
      assert.ok(line !== undefined && line.trim().length > 0, `${frames[0]} is a line of code`);
    }
  });
}
