// The main task through the job, interrupted after its first patch and resumed: the transcript
// marks the restart and the ladder's decision, the files keep how they were before the run,
// Review Changes and Undo work from that, and a catalog task refuses a folder that is not its sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTriage } from '../../../src/triage/job';
import { abandonRun } from '../../../src/triage/run-admin';
import { runEvents } from '../../../src/triage/run-events';
import { loadTranscript } from '../../../src/transcript/load';
import { transcriptText } from '../../../src/transcript/text';
import { reviewChanges, undoRun, planUndo } from '../../../src/triage/run-files';
import { findTask, mainTask } from '../../../src/triage/tasks/catalog';
import { WrongWorkspaceError, copySample } from '../../../src/triage/tasks/sample-copy';
import { UndoRefusedError } from '../../../src/core/errors';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { TOOL_ACTED } from '../../../src/store/crash-points';
import type { Approver } from '../../../src/agent/approver';
import { tempDir } from '../../support/temp-dir';

const yes: Approver = {
  approve: async () => 'approve',
  resolve: async () => ({ answer: 'rerun' }),
  answeredBy: () => 'a test',
};

test('interrupted after a patch and resumed: the transcript, the files before the run, review and undo', { timeout: 120_000 }, async (tc) => {
  const root = tempDir(tc, 'history-job-');
  const task = mainTask();
  const stateDir = path.join(root, 'state');
  const ws = await copySample(task, root);
  let died = false;
  const crash = (point: string, detail?: { tool?: string }): void => {
    if (point === TOOL_ACTED && detail?.tool === 'code_patch' && !died) {
      died = true;
      throw new SimulatedCrash(point);
    }
  };
  await assert.rejects(runTriage({ stateDir, task: task.name, workspace: ws, approver: yes, crash, store: { sync: false } }), SimulatedCrash);
  const mid = await loadTranscript(stateDir, (await fs.promises.readdir(path.join(stateDir, 'runs'))).find((n) => n.endsWith('.json'))!.slice(0, -5));
  const out = await runTriage({ stateDir, task: task.name, workspace: ws, approver: yes, store: { sync: false } });
  assert.equal(out.result.phase, 'done');
  assert.ok(
    out.checks?.every((c) => c.passed),
    JSON.stringify(out.checks?.filter((c) => !c.passed)),
  );

  const t = await loadTranscript(stateDir, out.runId);
  assert.deepEqual(
    t.entries.slice(0, mid.entries.length - 1).map((e) => JSON.stringify(e)),
    mid.entries.slice(0, -1).map((e) => JSON.stringify(e)),
    'what was shown before the crash is shown the same after it',
  );
  const restart = t.entries.find((e) => e.kind === 'history');
  assert.ok(restart && restart.kind === 'history');
  assert.match(restart.title, /^Restart 1: resumed at turn \d+ after the process ended/);
  assert.ok(
    restart.lines.some((l) => /already done: nothing repeated/.test(l)),
    restart.lines.join('\n'),
  );
  assert.ok(restart.lines.some((l) => /reused: not paid for again/.test(l)));
  const patch = t.entries.find((e) => e.kind === 'call' && e.call.tool === 'code_patch');
  assert.ok(patch?.kind === 'call' && patch.call.notes.some((n) => /rung 2 \(lookup\)/.test(n.text)));
  assert.ok(t.entries.some((e) => e.kind === 'call' && e.call.notes.some((n) => n.text === 'Approved by a test.')));
  assert.equal(t.issues.length, 3);
  assert.equal(t.checks?.passed, t.checks?.total);
  assert.ok(
    t.entries.filter((e) => e.kind === 'turn').every((e) => e.kind === 'turn' && e.usage),
    'every turn has its spend',
  );
  assert.equal(t.entries.at(-1)?.kind, 'answer');
  assert.deepEqual(t.notes, []);
  assert.deepEqual(await loadTranscript(stateDir, out.runId), t, 'the same each time');
  const text = transcriptText(t);
  assert.match(text, /==> Restart 1: resumed at turn/);

  // Review Changes: every file with how it was before the run.
  const review = await reviewChanges(stateDir, out.runId);
  assert.ok(review.files.length > 0);
  for (const f of review.files) {
    assert.equal(f.status, 'as-written');
    const inSample = fs.existsSync(path.join(task.sample, f.path));
    assert.equal(f.before === 'absent', !inSample, `${f.path}: before ${f.before}`);
  }
  assert.deepEqual(t.files.map((f) => f.change).sort(), review.files.map((f) => (f.before === 'absent' ? 'created' : 'modified')).sort());

  // Undo refuses while a file was edited after the run, then puts everything back.
  const edited = review.files.find((f) => f.before !== 'absent')!;
  const abs = path.join(ws, edited.path);
  const agents = fs.readFileSync(abs);
  fs.appendFileSync(abs, '// mine\n');
  await assert.rejects(
    undoRun(stateDir, out.runId),
    (e: unknown) => e instanceof UndoRefusedError && e.changes.length === 1 && e.changes[0].path === edited.path,
  );
  assert.ok(fs.readFileSync(abs).toString().endsWith('// mine\n'), 'nothing was changed');
  fs.writeFileSync(abs, agents);
  const plan = await planUndo(stateDir, out.runId);
  const done = await undoRun(stateDir, out.runId);
  assert.deepEqual(done, { restored: plan.restore, deleted: plan.remove });
  for (const f of review.files) {
    const sample = path.join(task.sample, f.path);
    if (fs.existsSync(sample)) assert.deepEqual(fs.readFileSync(path.join(ws, f.path)), fs.readFileSync(sample), `${f.path} is as in the sample`);
    else assert.equal(fs.existsSync(path.join(ws, f.path)), false, `${f.path}, created by the run, is gone`);
  }
  assert.ok((await reviewChanges(stateDir, out.runId)).files.every((f) => f.status === 'undone'));
  assert.deepEqual(await undoRun(stateDir, out.runId), { restored: [], deleted: [] }, 'a second undo has nothing to do');
  const after = await loadTranscript(stateDir, out.runId);
  assert.ok(after.entries.some((e) => e.kind === 'history' && e.title === "You undid the run's changes"));

  await abandonRun(stateDir, out.runId);
  assert.deepEqual((await runEvents(stateDir).read(out.runId)).events, [], 'deleting the run deletes its record');
});

test('a catalog task refuses a folder that is not a copy of its sample, and names the task whose sample it is', async (t) => {
  const root = tempDir(t, 'wrong-folder-');
  const ws = await copySample(mainTask(), root);
  const before = fs.readdirSync(ws, { recursive: true }).sort();
  const other = findTask('batch-parser');
  await assert.rejects(
    runTriage({ stateDir: path.join(root, 'state'), task: other.name, workspace: ws, approver: yes }),
    (e: unknown) =>
      e instanceof WrongWorkspaceError &&
      e.task === 'batch-parser' &&
      e.matching === mainTask().name &&
      /Nothing was written/.test(e.message) &&
      e.code === 'bad-input',
  );
  assert.deepEqual(fs.readdirSync(ws, { recursive: true }).sort(), before, 'the folder is untouched');
  assert.equal(fs.existsSync(path.join(root, 'state', 'runs')), false, 'no run was created');
  assert.equal(path.basename(await copySample(mainTask(), root)), `${mainTask().name}-2`);
});
