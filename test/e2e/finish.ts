// What every scenario that runs the main task to the end checks afterwards.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { E2eSession } from './session';
import { issues, onlyRun, type Reference, type RunInfo, type TaskInfo } from './reference';
import { sameRun, type Finished } from './triage-ui';

/** The run finished with every check passing, one issue per crash group, and the reference's files. */
export async function assertFinishedCleanly(s: E2eSession, fin: Finished, task: TaskInfo, ref: Reference): Promise<RunInfo> {
  assert.equal(fin.passed, fin.total, `done notification: ${fin.message}`);
  assert.equal(fin.total, task.checks, `done notification counts ${fin.total} checks, the catalog ${task.checks}`);
  const run = await assertRunDone(s.stateDir, s.workspace, task, ref);
  assert.ok(sameRun(run.runId, fin.runId), `the done notification names run ${fin.runId}, the state folder holds ${run.runId}`);
  return run;
}

/**
 * The one run in where (a state folder or a store URL) is done, the tracker holds exactly one
 * issue per crash group, and the workspace's files are the uninterrupted reference run's.
 */
export async function assertRunDone(where: string, workspace: string, task: TaskInfo, ref: Reference): Promise<RunInfo> {
  const run = await onlyRun(where);
  assert.equal(run.phase, 'done');
  const filed = await issues(where);
  assert.deepEqual(
    filed.map((i) => i.cause).sort(),
    [...task.groups].sort(),
    `exactly one issue per crash group; filed: ${JSON.stringify(filed.map((i) => `#${i.number} ${i.cause}`))}`,
  );
  for (const [rel, content] of ref.files) {
    const now = fs.readFileSync(path.join(workspace, rel), 'utf8');
    assert.equal(now, content, `${rel} differs from the uninterrupted reference run (a patch applied twice or lost?)`);
  }
  return run;
}
