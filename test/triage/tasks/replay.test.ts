/**
 * The bundled recordings replay through the real job (loop, tools, embedded tracker,
 * checks): the main task finishes with every check passing and one issue per crash
 * group, and the batch task makes at least 100 checkpoint saves over 30+ turns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTriage } from '../../../src/triage/job';
import { findTask, mainTask } from '../../../src/triage/tasks/catalog';
import { loadRecording } from '../../../src/model/recorded-provider';
import { PriceTable } from '../../../src/model/prices';
import type { Approver, ApprovalAnswer, LadderAnswer } from '../../../src/agent/approver';

class Yes implements Approver {
  approvals = 0;
  async approve(): Promise<ApprovalAnswer> {
    this.approvals++;
    return 'approve';
  }
  async resolve(): Promise<LadderAnswer> {
    throw new Error('a clean replay never reaches the ladder');
  }
}

async function replay(name: string, t: { after(fn: () => Promise<void>): void }) {
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), `replay-${name}-`));
  t.after(() => fs.rm(stateDir, { recursive: true, force: true }));
  const approver = new Yes();
  let saves = 0;
  const outcome = await runTriage({
    stateDir,
    task: name,
    approver,
    store: { sync: false },
    onEvent: (e) => {
      if (e.type === 'saved') saves++;
    },
  });
  return { outcome, saves, approvals: approver.approvals };
}

test('the main task replays through the real job with every check passing', { timeout: 120_000 }, async (t) => {
  const task = mainTask();
  const { outcome, approvals } = await replay(task.name, t);
  const r = outcome.result;
  assert.equal(r.phase, 'done');
  const checks = outcome.checks ?? [];
  assert.deepEqual(
    checks.map((c) => c.name),
    task.checkNames,
  );
  assert.deepEqual(
    checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`),
    [],
  );
  assert.deepEqual(outcome.issues.map((i) => i.cause).sort(), task.groups.map((g) => g.cause).sort());
  assert.deepEqual(outcome.issues.map((i) => i.number).sort(), [1, 2, 3]);
  assert.equal(approvals, task.groups.length, 'one approval per filing');
  assert.equal(outcome.modelCalls, r.turns);
  const rec = await loadRecording(task.recording);
  const prices = new PriceTable();
  const expected = rec.turns.reduce((sum, turn) => sum + prices.dollars(rec.model, turn.reply.usage), 0);
  assert.ok(Math.abs(r.usage.dollars - expected) < 1e-9, `$${r.usage.dollars} spent, the recording prices at $${expected}`);
  assert.equal(
    r.usage.inputTokens,
    rec.turns.reduce((n, turn) => n + turn.reply.usage.inputTokens, 0),
  );
});

test('the batch task replays with 30+ turns, 100+ saves and every check passing', { timeout: 240_000 }, async (t) => {
  const task = findTask('batch-parser');
  const { outcome, saves } = await replay(task.name, t);
  assert.equal(outcome.result.phase, 'done');
  assert.ok(outcome.result.turns >= 30, `${outcome.result.turns} turns`);
  assert.ok(saves >= 100, `${saves} saves`);
  assert.deepEqual(
    (outcome.checks ?? []).filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`),
    [],
  );
  assert.equal(outcome.issues.length, task.groups.length);
});
