// The real-editor scenario of issue 14: a run of a headless worker on a shared PostgreSQL store
// (a real server, started here with the project's own tool) pauses for a person; the editor
// connected to the same store (durableTriage.store) lists it in the Runs view and asks its
// approvals in notifications; after each answer a worker continues the run, to the end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickNotificationButton, editorTabs, notificationMessage, runCommand, triageJson, waitFor, waitForNotification } from './harness';
import { SCENARIO_TIMEOUT_MS, mainTaskSuite } from './main-task';
import { issues, onlyRun } from './reference';
import { assertRunDone } from './finish';
import { startPg, type LocalPg } from './pg-server';
import { STORE_APPROVAL, WORKER_CONTINUES, clickStatusBar, exactly, statusBarText } from './triage-ui';
import { clickDialogButton } from './run-panel';
import { expandRunsRow, waitForRunsRow, widenSideBar } from './runs-view';

const m = mainTaskSuite();
const APPROVAL_NEEDED = 'Triage: approval needed';
let pg: LocalPg | undefined;
before(async () => {
  pg = await startPg();
});
after(() => pg?.stop());

interface WorkerRun {
  runId: string;
  ended: string;
  modelCalls: number;
  error?: string;
}

/** `triage worker --store URL --exit-when-idle`: runs what is runnable until it pauses or ends. */
async function worker(url: string): Promise<WorkerRun[]> {
  return (await triageJson<{ runs: WorkerRun[] }>(['worker', '--store', url, '--exit-when-idle'])).runs;
}

test(
  "9. a worker's run paused in a shared PostgreSQL store: the editor on the same store lists it and asks its approvals; a worker continues it after each, to the end, once",
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    const url = await pg!.createDatabase('triage');
    await m.suite.run({ ...m.scenario('9-shared-store'), userSettings: { 'durableTriage.store': url }, openFirstWindow: false }, async (s) => {
      // A headless worker runs the task on the folder the editor opens next, until the first approval (filing an issue).
      const { runId } = await triageJson<{ runId: string }>(['enqueue', '--store', url, '--task', m.task.name, '--workspace', s.workspace]);
      const first = await worker(url);
      assert.deepEqual(
        first.map((r) => [r.runId, r.ended]),
        [[runId, 'paused']],
        `the worker pauses the run on an approval: ${JSON.stringify(first)}`,
      );
      let modelCalls = first[0].modelCalls;
      const paused = await onlyRun(url);
      assert.equal(paused.phase, 'paused');
      assert.deepEqual(
        paused.pending.map((p) => [p.kind, p.tool]),
        [['approval', 'issue_file']],
        'the run waits on the approval to file an issue',
      );

      // The editor on the same store: the Runs view lists the paused run with its question, and the approval is asked.
      await s.openWindow();
      const tail = runId.slice(-8);
      const runRow = new RegExp(`…${tail} waiting for you · turn ${paused.turns} · \\$[\\d.]+ · restarts 0`);
      await waitForRunsRow(s.page, runRow);
      await widenSideBar(s.page, 640);
      await expandRunsRow(s.page, runRow);
      // The question is named by what it acts on (the issue's title), not by a call ID.
      await waitForRunsRow(s.page, /^Approve: File issue: \S.* waiting for your approval$/);

      const approvals: string[] = [];
      for (;;) {
        const message = await notificationMessage(await waitForNotification(s.page, STORE_APPROVAL, 30_000));
        const [, askedRun, askedTask, tool] = STORE_APPROVAL.exec(message) ?? [];
        assert.deepEqual([askedRun, askedTask, tool], [runId, m.task.name, 'issue_file'], `the notification names the run, its task and the tool: ${message}`);
        assert.match(message, /waits for your approval of issue_file: File issue: [^{]+$/, "the issue is named by its title, not by the model's raw arguments");
        await waitFor(async () => (await statusBarText(s.page)) === APPROVAL_NEEDED, { what: `the status bar to say "${APPROVAL_NEEDED}"`, timeoutMs: 10_000 });
        if (approvals.length === 0) {
          await s.screenshot('9-shared-store/paused-run-asked');
          // Show Details: the issue as a rendered document named after it, from the saved question; then it is asked again.
          await clickNotificationButton(s.page, exactly(message), 'Show Details');
          await waitFor(async () => (await editorTabs(s.page)).some((t) => /File_issue_.*\.md/.test(t)), {
            what: 'the details of the issue to open in a tab',
            timeoutMs: 15_000,
          });
          // The markdown preview (a webview) renders the issue's title and cause as the saved question holds them.
          const preview = s.page.locator('iframe.webview.ready').filter({ visible: true }).first().contentFrame().locator('#active-frame').contentFrame();
          await preview.getByText('Cause:').first().waitFor({ state: 'visible', timeout: 15_000 });
          assert.match((await preview.locator('body').innerText()).replace(/\s+/g, ' '), /Title: .+ Cause: done-after-delete/);
          await s.screenshot('9-shared-store/details');
          await clickNotificationButton(s.page, exactly(message), 'Approve');
        } else if (approvals.length === 1) {
          // The second one from the status bar: asked again in a dialog, answered for a worker (the window does not take the run over).
          await clickStatusBar(s.page, APPROVAL_NEEDED);
          await s.page.locator('.monaco-dialog-box').filter({ visible: true }).first().waitFor({ timeout: 10_000 });
          await s.screenshot('9-shared-store/asked-again');
          await clickDialogButton(s.page, exactly(message), 'Approve');
          assert.equal((await onlyRun(url)).locked, false, 'the window did not take the run');
        } else {
          await clickNotificationButton(s.page, exactly(message), 'Approve');
        }
        approvals.push(message);
        const recorded = await notificationMessage(await waitForNotification(s.page, WORKER_CONTINUES, 15_000));
        assert.equal(WORKER_CONTINUES.exec(recorded)?.[1], runId, recorded);
        // Answered: nothing is asked any more, though the run waits in the store for a worker.
        await waitFor(async () => (await statusBarText(s.page)) !== APPROVAL_NEEDED, {
          what: 'the status bar to stop asking once answered',
          timeoutMs: 15_000,
        });
        await runCommand(s.page, 'Notifications: Clear All Notifications');
        // A worker of the fleet finds the answer in the store and continues the run: to the next approval, or to the end.
        const went = await worker(url);
        assert.deepEqual(
          went.map((r) => r.runId),
          [runId],
          `the answered run is runnable again: ${JSON.stringify(went)}`,
        );
        modelCalls += went[0].modelCalls;
        if (went[0].ended === 'done') break;
        assert.equal(went[0].ended, 'paused', `the worker stopped with ${went[0].ended}: ${went[0].error ?? ''}`);
        assert.ok(approvals.length < m.task.groups.length, `more approvals than crash groups: ${JSON.stringify(approvals)}`);
      }
      assert.equal(approvals.length, m.task.groups.length, `one approval per crash group: ${JSON.stringify(approvals)}`);

      // Afterwards, through the CLI on the store: done once, one issue per group, the reference's files, no reply paid twice.
      const run = await assertRunDone(url, s.workspace, m.task, m.ref);
      assert.equal(run.restarts, 0, 'going on from an answered question is no restart');
      assert.equal(run.turns, m.ref.turns, 'as many turns as the uninterrupted reference run');
      assert.equal(modelCalls, m.ref.turns, 'the workers together made one model call per turn: none repeated');
      assert.ok(
        (await issues(url)).every((i) => i.runId === runId),
        'every issue was filed by the run',
      );
      assert.deepEqual(await worker(url), [], 'nothing is left for a worker');
      await waitForRunsRow(s.page, new RegExp(`…${tail} finished · turn ${m.ref.turns} · \\$[\\d.]+ · restarts 0`));
      await waitFor(async () => (await statusBarText(s.page)) === undefined, { what: 'the status bar to stop asking', timeoutMs: 15_000 });
      await s.screenshot('9-shared-store/finished');
    });
  },
);
