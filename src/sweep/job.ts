/**
 * The sweep's small scripted triage job: a two-file workspace, a scripted model that
 * reads, writes a regression test, patches, files an issue, tries to file it again (the
 * refile guard must refuse), and answers; a scripted person who answers the ladder
 * correctly by looking at the tracker and the workspace; and the checks judged after.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelProvider, ModelRequest } from '../model/provider';
import { PriceTable } from '../model/prices';
import { newState, type RunResult, type RunState } from '../store/state';
import type { ModelReply } from '../core/conversation';
import { startRun, resumeRun, type RunnerOptions } from '../agent/runner';
import type { Approver, ApprovalAnswer, LadderAnswer, LadderQuestion } from '../agent/approver';
import { TrackerClient } from '../tracker/client';
import type { LoopEvent } from '../agent/loop';
import { SavePoint } from '../store/save-points';

export const SWEEP_TASK = 'sweep-calc';
export const SWEEP_CAUSE = 'divide-by-zero';

const CALC = `'use strict';
function divide(a, b) {
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

export const FIX_LINE = "  if (b === 0) throw new RangeError('divide by zero');";

const REGRESSION = `'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const { divide } = require('../src/calc');
test('divide by zero throws', () => assert.throws(() => divide(1, 0), RangeError));
`;

const CRASH = `RangeError: result is Infinity
    at render (src/view.js:12:11)
    at divide (src/calc.js:3:12)
`;

/** The sweep's one command, run again after every crash: resume the run if its checkpoint exists, else start it (a crash inside its first write leaves none). */
export async function sweepCommand(o: RunnerOptions & { runId: string; workspace: string; keys: boolean }): Promise<RunResult> {
  const { runId, workspace, keys, ...common } = o;
  if (await o.runStore.hasRun(runId)) return resumeRun({ ...common, runId });
  const config = { workspace, provider: 'scripted', model: 'scripted', keys };
  return startRun({ ...common, state: newState({ runId, task: SWEEP_TASK, config, system: 'Triage the crash.', prompt: 'Triage crashes/.' }) });
}

export async function writeSweepWorkspace(dir: string): Promise<void> {
  await fs.promises.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.promises.mkdir(path.join(dir, 'crashes', SWEEP_CAUSE), { recursive: true });
  await fs.promises.writeFile(path.join(dir, 'src', 'calc.js'), CALC);
  await fs.promises.writeFile(path.join(dir, 'crashes', SWEEP_CAUSE, 'c1.txt'), CRASH);
}

const ISSUE = { title: 'divide() returns Infinity for a zero divisor', body: 'Seen in crashes/divide-by-zero/c1.txt.', cause: SWEEP_CAUSE };

function reply(turn: number, calls: [string, unknown][], text?: string): ModelReply {
  const r: ModelReply = {
    calls: calls.map(([name, args], i) => ({ id: `call_${turn}_${i}`, name, args: JSON.stringify(args) })),
    usage: { inputTokens: 1000 + 400 * turn, outputTokens: 120, dollars: 0.0048 + 0.0012 * turn },
    model: 'scripted',
  };
  if (text !== undefined) r.text = text;
  return r;
}

const SCRIPT: ModelReply[] = [
  reply(0, [['read_file', { path: 'src/calc.js' }]]),
  reply(1, [
    ['write_file', { path: 'test/regression-divide.test.js', content: REGRESSION }],
    ['code_patch', { path: 'src/calc.js', patch: PATCH }],
  ]),
  reply(2, [['issue_file', ISSUE]]),
  reply(3, [['issue_file', ISSUE]]),
  reply(4, [], 'Fixed divide-by-zero and filed issue #1.'),
];

/** Counts shared by every life of one scenario. */
export interface SweepCounters {
  /** Model requests per turn. */
  requests: number[];
  /** Turns whose reply has been saved (save point 2 or 5 completed). */
  savedReplies: Set<number>;
  /** Requests for a turn whose reply had already been saved: a reply paid twice. */
  paidTwice: number;
  /** Questions put to the person by the ladder. */
  questions: number;
  /** The turn of a reply that arrived and waits for its save. */
  unsavedReply?: number;
}

/** Follows the loop's events: a reply counts as saved once its save point completed. Returns the turn it just marked saved. */
export function noteSavedReply(c: SweepCounters, e: LoopEvent): number | undefined {
  if (e.type === 'reply') c.unsavedReply = e.turn;
  if (e.type !== 'saved' || (e.point !== SavePoint.ReplyArrived && e.point !== SavePoint.PausedOrDone) || c.unsavedReply === undefined) return undefined;
  const turn = c.unsavedReply;
  c.savedReplies.add(turn);
  delete c.unsavedReply;
  return turn;
}

export function newCounters(): SweepCounters {
  return { requests: [], savedReplies: new Set(), paidTwice: 0, questions: 0 };
}

export class ScriptedModel implements ModelProvider {
  readonly provider = 'scripted';
  readonly model = 'scripted';
  readonly prices = new PriceTable();
  constructor(private readonly c: SweepCounters) {}
  async complete(req: ModelRequest, _signal?: AbortSignal): Promise<ModelReply> {
    const r = SCRIPT[req.turn];
    if (!r) throw new Error(`the sweep's script has no turn ${req.turn}`);
    this.c.requests[req.turn] = (this.c.requests[req.turn] ?? 0) + 1;
    if (this.c.savedReplies.has(req.turn)) this.c.paidTwice++;
    return structuredClone(r);
  }
}

/** Approves every filing; answers the ladder correctly by looking at the tracker and the workspace. */
export class ScriptedPerson implements Approver {
  constructor(
    private readonly c: SweepCounters,
    private readonly tracker: TrackerClient,
    private readonly workspace: string,
  ) {}
  async approve(): Promise<ApprovalAnswer> {
    return 'approve';
  }
  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    this.c.questions++;
    if (q.tool === 'issue_file') {
      const found = await this.tracker.search({ cause: SWEEP_CAUSE, runId: q.runId });
      return found.length > 0 ? { answer: 'done', result: `filed issue #${found[0].number}: ${found[0].title}` } : { answer: 'rerun' };
    }
    if (q.tool === 'code_patch') {
      const text = await fs.promises.readFile(path.join(this.workspace, 'src', 'calc.js'), 'utf8');
      return text.includes(FIX_LINE) ? { answer: 'done', result: 'patched src/calc.js: the fix is in place' } : { answer: 'rerun' };
    }
    return { answer: 'rerun' };
  }
}

export interface SweepJudgement {
  duplicates: number;
  failedChecks: string[];
}

/** Duplicates (an issue filed twice, a patch applied twice) and failing checks, judged on the finished run. */
export async function judgeSweep(state: RunState | undefined, workspace: string, tracker: TrackerClient): Promise<SweepJudgement> {
  const failed: string[] = [];
  let duplicates = 0;
  const issues = state ? await tracker.search({ runId: state.runId }) : [];
  if (issues.length > 1) duplicates += issues.length - 1;
  const calc = await fs.promises.readFile(path.join(workspace, 'src', 'calc.js'), 'utf8');
  const fixes = calc.split('\n').filter((l) => l === FIX_LINE).length;
  if (fixes > 1) duplicates += fixes - 1;
  if (state?.phase !== 'done') failed.push('run finished');
  if (issues.length !== 1) failed.push('one issue filed');
  if (fixes !== 1) failed.push('patch applied once');
  const test = await fs.promises.readFile(path.join(workspace, 'test', 'regression-divide.test.js'), 'utf8').catch(() => '');
  if (test !== REGRESSION) failed.push('regression test written');
  if (!state?.answer?.includes('#1')) failed.push('answer names the issue');
  return { duplicates, failedChecks: failed };
}
