/**
 * What one model reply can make a run do: a filing must name one of the run's crash groups (50
 * filings for causes that are no group file nothing and ask nobody), and a run has default turn
 * and dollar limits (agent/budget.ts DEFAULT_LIMITS) when none is given, which a user raises.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTriage, type TriageRunOptions } from '../../../src/triage/job';
import { TrackerStore } from '../../../src/tracker/store';
import { trackerDir } from '../../../src/tracker/embedded';
import { BudgetExceededError } from '../../../src/core/errors';
import type { Approver } from '../../../src/agent/approver';
import type { ModelReply } from '../../../src/core/conversation';
import { reply, ScriptModel } from '../../agent/support';

/** A workspace with two crash groups (causes "npe" and "oom") and a state folder. */
function setup(t: TestContext): { ws: string; state: string } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-limits-ws-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-limits-state-'));
  t.after(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });
  for (const g of ['npe', 'oom']) {
    fs.mkdirSync(path.join(ws, 'reports', g), { recursive: true });
    fs.writeFileSync(path.join(ws, 'reports', g, '1.txt'), `${g} crash`);
  }
  return { ws, state };
}

function counting(): Approver & { asked: string[] } {
  const asked: string[] = [];
  return { asked, approve: async (q) => (asked.push(q.tool), 'approve'), resolve: async () => ({ answer: 'later' }) };
}

function options(ws: string, state: string, model: ScriptModel, approver: Approver): TriageRunOptions {
  return { stateDir: state, task: 'crash-folder', workspace: ws, crashes: 'reports', model, approver, store: { sync: false } };
}

test('one reply with 50 filings for causes that are no crash group: each refused naming the valid causes, nothing filed, nobody asked', async (t) => {
  const { ws, state } = setup(t);
  const bogus: [string, unknown][] = Array.from({ length: 50 }, (_, i) => ['issue_file', { title: `spam ${i}`, body: 'b', cause: `not-a-group-${i}` }]);
  const model = new ScriptModel([reply(0, bogus), reply(1, [], 'Done.')]);
  const approver = counting();
  const done = await runTriage(options(ws, state, model, approver));
  assert.equal(done.result.phase, 'done');
  assert.deepEqual(approver.asked, [], 'no person is asked to approve a filing that cannot be made');
  assert.deepEqual(done.issues, []);
  assert.deepEqual(await TrackerStore.readOnly(trackerDir(state)), [], 'the tracker holds no issue');
  const results = model.lastRequest!.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
  assert.equal(results.length, 50);
  for (const r of results) {
    assert.equal(r.isError, true);
    assert.match(r.content, /^Invalid arguments for issue_file: argument "cause" should be "npe" or "oom", found "not-a-group-\d+"/);
  }
});

test("a filing for one of the run's crash groups is filed (after the person's yes)", async (t) => {
  const { ws, state } = setup(t);
  const model = new ScriptModel([
    reply(0, [
      ['issue_file', { title: 'npe on start', body: 'reports/npe/1.txt', cause: 'npe' }],
      ['issue_file', { title: 'x', body: 'y', cause: 'NPE' }],
    ]),
    reply(1, [], 'Filed #1.'),
  ]);
  const approver = counting();
  const done = await runTriage(options(ws, state, model, approver));
  assert.deepEqual(approver.asked, ['issue_file']);
  assert.deepEqual(
    done.issues.map((i) => [i.number, i.cause]),
    [[1, 'npe']],
  );
});

test('with no limits given a run stops at the default $5, and goes on once they are raised', async (t) => {
  const { ws, state } = setup(t);
  const pricey: ModelReply = { ...reply(0, [['list_files', {}]]), usage: { inputTokens: 1000, outputTokens: 100, dollars: 6 } };
  const model = new ScriptModel([pricey, reply(1, [], 'Done.')]);
  const o = options(ws, state, model, counting());
  await assert.rejects(runTriage(o), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars' && e.limit === 5);
  assert.equal(model.total, 1, 'the second call was not made');
  const done = await runTriage({ ...o, limits: { maxDollars: 10 } });
  assert.equal(done.result.phase, 'done');
});

test('with no limits given a run stops before turn 101 (the default turns); a raised limit lets it finish', async (t) => {
  const { ws, state } = setup(t);
  const n = 100; // the default turns
  const script = Array.from({ length: n }, (_, i) => ({ ...reply(i, [['no_such_tool', {}]]), usage: { inputTokens: 10, outputTokens: 1, dollars: 0 } }));
  const model = new ScriptModel([...script, reply(n, [], 'Done.')]);
  const o = options(ws, state, model, counting());
  await assert.rejects(runTriage(o), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'turns' && e.used === n && e.limit === n);
  assert.equal(model.total, n);
  const done = await runTriage({ ...o, limits: { maxTurns: n + 1 } });
  assert.equal(done.result.phase, 'done');
  assert.equal(done.result.turns, n + 1);
});
