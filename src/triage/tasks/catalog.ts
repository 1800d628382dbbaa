/**
 * The task catalog: the bundled tasks, each with a sample workspace (a small buggy
 * project with its own tests and crash reports grouped by cause), a recording the
 * recorded model replays, its crash groups and the checks it is judged by.
 */
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import type { SavedCrashGroup } from '../../store/state';
import { packageRoot } from './package-root';
import { TRIAGE_SYSTEM, triagePrompt } from './prompts';
import { checkList, type CheckDef } from './checklist';
import type { TaskDefinition } from './definition';
import { doneAfterDelete } from './m1-done-after-delete';
import { batchParser } from './batch-parser';
import { cartUnknownCoupon } from './cart-unknown-coupon';

export interface GroupSpec {
  /** The cause slug: the crash folder's name and the cause. */
  cause: string;
  /** One line: what goes wrong. */
  summary: string;
  /** Workspace-relative folder of the group's crash reports: crashes/<cause>. */
  crashes: string;
  /** The file the fix belongs in (workspace-relative). */
  file: string;
  /** The regression test the agent writes (workspace-relative): test/regression-<cause>.test.js. */
  test: string;
  /** A group of raw reports (the crash-folder task): its signature and its reports. */
  signature?: string;
  reports?: string[];
}

export interface TaskSpec {
  name: string;
  description: string;
  /** The demo's task. */
  main?: boolean;
  /** Absolute path of samples/<name>/workspace. */
  sample: string;
  /** Absolute path of samples/<name>/recording.json. */
  recording: string;
  groups: GroupSpec[];
  /** The crash-folder task: its groups as the run saves them at its start. */
  crashGroups?: SavedCrashGroup[];
  prompt: string;
  system: string;
  /** Names of the checks judge() returns, in order. */
  checkNames: string[];
  checks: CheckDef[];
}

const DEFINITIONS: TaskDefinition[] = [doneAfterDelete, batchParser, cartUnknownCoupon];

function spec(d: TaskDefinition, root: string): TaskSpec {
  const groups: GroupSpec[] = d.groups.map((g) => ({
    cause: g.cause,
    summary: g.summary,
    crashes: `crashes/${g.cause}`,
    file: g.file,
    test: `test/regression-${g.cause}.test.js`,
  }));
  const checks = checkList(groups);
  const t: TaskSpec = {
    name: d.name,
    description: d.description,
    sample: path.join(root, 'samples', d.name, 'workspace'),
    recording: path.join(root, 'samples', d.name, 'recording.json'),
    groups,
    prompt: triagePrompt(d.framing),
    system: TRIAGE_SYSTEM,
    checkNames: checks.map((c) => c.name),
    checks,
  };
  if (d.main) t.main = true;
  return t;
}

/** Every task of the catalog, the main one first. */
export function tasks(): TaskSpec[] {
  const root = packageRoot();
  return DEFINITIONS.map((d) => spec(d, root)).sort((a, b) => Number(b.main === true) - Number(a.main === true));
}

export function findTask(name: string): TaskSpec {
  const all = tasks();
  const t = all.find((x) => x.name === name);
  if (!t) throw new BadInputError(`Unknown task "${name}". Known tasks: ${all.map((x) => x.name).join(', ')} (see "triage tasks").`);
  return t;
}

/** The demo's task. */
export function mainTask(): TaskSpec {
  const t = tasks().find((x) => x.main);
  if (!t) throw new Error('The catalog has no main task.');
  return t;
}
