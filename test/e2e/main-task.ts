// The setup both scenario files share: the catalog's main task, its uncut reference run by
// the CLI, and one installed extension and browser for the file's scenarios.
import { before, after } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { E2eSuite, type SessionOptions } from './harness';
import { REPO_ROOT } from './paths';
import { mainTask, referenceRun, type Reference, type TaskInfo } from './reference';
import { LOG_NAME } from './triage-ui';

export const DIE_AFTER = 'durableTriage.debug.dieAfterTool';
export const SCENARIO_TIMEOUT_MS = 300_000;

export interface MainTaskSuite {
  suite: E2eSuite;
  task: TaskInfo;
  ref: Reference;
  /** A scenario's session options: a copy of the main task's sample with these workspace settings. */
  scenario(name: string, workspaceSettings?: Record<string, unknown>): SessionOptions;
}

/** Registers the file's before/after hooks; the returned object is filled once `before` has run. */
export function mainTaskSuite(): MainTaskSuite {
  let refDir: string | undefined;
  const m = {
    scenario(name: string, workspaceSettings: Record<string, unknown> = {}): SessionOptions {
      return { scenario: name, workspace: path.join(REPO_ROOT, 'samples', m.task.name, 'workspace'), workspaceSettings, extensionLogName: LOG_NAME };
    },
  } as MainTaskSuite;
  before(async () => {
    m.task = await mainTask();
    refDir = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-triage-e2e-ref-'));
    m.ref = await referenceRun(m.task.name, refDir);
    m.suite = await E2eSuite.start();
  });
  after(async () => {
    await m.suite?.close();
    if (refDir) fs.rmSync(refDir, { recursive: true, force: true });
  });
  return m;
}
