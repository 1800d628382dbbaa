// The real-editor scenarios of issue 5: the packaged extension in code-server, driven in
// Chromium as a user would, with assertions on what the user sees and, through the CLI, on
// the run, the tracker and the workspace afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type E2eSession,
  clickNotificationButton,
  hasNotification,
  isAlive,
  notificationMessage,
  pickQuickItem,
  quickPickRows,
  runCommand,
  waitFor,
  waitForDiffEditor,
  waitForNotification,
} from './harness';
import { extensionLogLine, extensionLogLines } from './extension-log';
import { DIE_AFTER, SCENARIO_TIMEOUT_MS, mainTaskSuite } from './main-task';
import { issues, onlyRun, toolAfterFirstWrite, type RunInfo } from './reference';
import { clickDialogButton, headerShare, runPanel, runTabs, scrollPanelToY, waitForOneRunTab, waitForRunPanel, waitingCallPlace } from './run-panel';
import { assertFinishedCleanly as finishedCleanly } from './finish';
import {
  APPROVAL,
  CMD_START,
  DONE,
  FINISHED_RUN,
  OPEN_ELSEWHERE,
  RESUME_OFFER,
  WORKSPACE_CHANGED,
  approveOne,
  approveUntilDone,
  exactly,
  startTriage,
  type Finished,
} from './triage-ui';

const m = mainTaskSuite();
/** What the extension logs when its settings changed and were read again (src/extension/extension.ts). */
const SETTINGS_READ = /settings changed: read again/;

async function assertFinishedCleanly(s: E2eSession, fin: Finished): Promise<RunInfo> {
  return finishedCleanly(s, fin, m.task, m.ref);
}

/** Approves what is asked until the extension host pid is gone (a debug.dieAfterTool crash). */
async function approveUntilExit(s: E2eSession, pid: number, timeoutMs = 180_000): Promise<string[]> {
  const approved: string[] = [];
  await waitFor(
    async () => {
      if (!isAlive(pid)) return true;
      if (await hasNotification(s.page, APPROVAL)) approved.push(await approveOne(s.page, 5_000));
      return false;
    },
    { what: `extension host ${pid} to kill itself (debug.dieAfterTool)`, timeoutMs, intervalMs: 250 },
  );
  return approved;
}

/** Waits until the run in the state folder is saved as paused on an approval. */
async function pausedRun(s: E2eSession): Promise<RunInfo> {
  return waitFor(
    async () => {
      const run = await onlyRun(s.stateDir);
      return run.phase === 'paused' && run.pending.some((p) => p.kind === 'approval') ? run : undefined;
    },
    { what: 'the run to be saved as paused with its approval pending', timeoutMs: 15_000, intervalMs: 250 },
  );
}

/**
 * After a debug.dieAfterTool crash: the workbench restarts the extension host by itself;
 * clear the setting, reload the window, and accept the resume offer.
 */
async function reloadAndResume(s: E2eSession, deadPid: number): Promise<void> {
  await s.waitForNewExtensionHost([deadPid]);
  s.updateWorkspaceSettings({ [DIE_AFTER]: undefined });
  await s.reload();
  await clickNotificationButton(s.page, RESUME_OFFER, 'Resume');
}

test(
  '1. start from the palette with the recorded model, approve each issue, all checks pass; Start again shows the result, no new run',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    await m.suite.run(m.scenario('1-start-approve-finish'), async (s) => {
      await startTriage(s.page, m.task.name);
      const fin = await approveUntilDone(s.page);
      assert.equal(fin.approvals.length, m.task.groups.length, `one approval per crash group: ${JSON.stringify(fin.approvals)}`);
      const run = await assertFinishedCleanly(s, fin);
      // The same Start again: the finished run is offered, not run again.
      await runCommand(s.page, CMD_START);
      await pickQuickItem(s.page, m.task.name);
      const dialog = s.page.locator('.monaco-dialog-box').filter({ visible: true }).filter({ hasText: FINISHED_RUN }).first();
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      await s.screenshot('1-start-approve-finish/start-again-offers-result');
      await clickDialogButton(s.page, FINISHED_RUN, 'Show Result');
      const again = await waitForNotification(s.page, DONE, 60_000);
      assert.match(await notificationMessage(again), /checks passed/);
      const after = await onlyRun(s.stateDir);
      assert.deepEqual(
        [after.runId, after.turns, after.restarts],
        [run.runId, run.turns, run.restarts],
        'the same run, nothing ran: no model call, no restart',
      );
      assert.equal((await issues(s.stateDir)).length, m.task.groups.length, 'nothing filed again');
    });
  },
);

test(
  '2. extension host SIGKILLed after a patch, before its result was saved: the panel says it is disconnected; resume without a reload, one Run tab, no duplicates',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    await m.suite.run(m.scenario('2-crash-after-patch', { [DIE_AFTER]: 'code_patch' }), async (s) => {
      const pid = s.extensionHostPid();
      await startTriage(s.page, m.task.name);
      await approveUntilExit(s, pid);
      assert.equal(isAlive(pid), false);
      const crashed = await onlyRun(s.stateDir);
      assert.ok(
        crashed.unresolved.some((m) => m.tool === 'code_patch'),
        `the checkpoint holds an attempt marker for the patch with no result: ${JSON.stringify(crashed.unresolved)}`,
      );
      // The panel of the dead extension host says it is no longer connected instead of showing the run as live (issue #23 item 2).
      await s.waitForNewExtensionHost([pid]);
      const lost = runPanel(s.page).locator('.lost');
      await lost.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await lost.innerText(), /no longer connected: the editor's extension host stopped/);
      assert.equal(await runPanel(s.page).locator('header button:not([disabled])').count(), 0, 'no button of the disconnected panel pretends to act');
      await s.screenshot('2-crash-after-patch/panel-disconnected');
      // Resume in the same window (no reload): the run's one panel, the dead host's tab closed (issue #23 item 1).
      const reread = extensionLogLines(s, SETTINGS_READ).length;
      s.updateWorkspaceSettings({ [DIE_AFTER]: undefined });
      await extensionLogLine(s, SETTINGS_READ, reread); // the editor has read the settings file again before Resume starts the run
      await clickNotificationButton(s.page, RESUME_OFFER, 'Resume');
      await waitForOneRunTab(s.page);
      await waitForRunPanel(s.page);
      await waitFor(async () => (await runPanel(s.page).locator('header .pill').innerText()).trim() !== 'disconnected', {
        what: 'the live Run panel',
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      assert.equal((await runTabs(s.page)).length, 1, `one Run tab once the resumed run shows: ${JSON.stringify(await runTabs(s.page))}`);
      await s.screenshot('2-crash-after-patch/one-run-tab-after-resume');
      const fin = await approveUntilDone(s.page);
      assert.equal((await runTabs(s.page)).length, 1, `one Run tab at the end: ${JSON.stringify(await runTabs(s.page))}`);
      const run = await assertFinishedCleanly(s, fin);
      assert.ok((run.restarts ?? 0) >= 1, `the run was resumed (restarts ${run.restarts})`);
    });
  },
);

test('3. reload while an approval is pending: it is asked again, approving finishes the run', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  await m.suite.run(m.scenario('3-reload-pending-approval'), async (s) => {
    await startTriage(s.page, m.task.name);
    const asked = await notificationMessage(await waitForNotification(s.page, APPROVAL, 120_000));
    await pausedRun(s);
    // Start again on the run waiting here: it says the run waits for an answer, with Open Run and Show Question (issue #23 item 13).
    await runCommand(s.page, CMD_START);
    await pickQuickItem(s.page, m.task.name);
    await waitForNotification(s.page, /is open in this window and waits for your answer/, 30_000);
    await s.screenshot('3-reload-pending-approval/start-on-waiting-run');
    // The person scrolled up to read the start of the run before reloading.
    await waitForRunPanel(s.page);
    assert.ok((await scrollPanelToY(s.page, 150)) > 0, 'the panel could be scrolled up before the reload');
    await s.reload();
    await waitForNotification(s.page, exactly(asked), 60_000);
    // The restored panel and the one the re-asked run opens are one tab, and it loads (issue #23 item 1).
    await waitForRunPanel(s.page);
    await waitForOneRunTab(s.page);
    await s.screenshot('3-reload-pending-approval/one-run-tab-after-reload');
    // It opens where the run stopped: the waiting call just below the sticky question bar, not the old scroll (issue #23 item 14).
    await waitFor(
      async () => {
        const place = await waitingCallPlace(s.page);
        if (place !== undefined && place.cardTop >= place.headerBottom - 2 && place.cardTop < place.height - 40) return true;
        throw new Error(`the waiting call is at ${JSON.stringify(place)}`);
      },
      { what: 'the restored panel to show the waiting call below its header', timeoutMs: 15_000, intervalMs: 250 },
    );
    await s.screenshot('3-reload-pending-approval/restored-at-question');
    // A 1000x700 window: the sticky header with the question bar takes a quarter of the panel at most (issue #23 item 14).
    await s.page.setViewportSize({ width: 1000, height: 700 });
    const share = await waitFor(
      async () => {
        const sh = await headerShare(s.page);
        if (sh.height < 700 && sh.questions > 0 && sh.header <= sh.height / 4) return sh;
        throw new Error(`header and panel heights ${JSON.stringify(sh)}`);
      },
      { what: 'the header with its question bar to take at most a quarter of the panel at 1000x700', timeoutMs: 10_000, intervalMs: 250 },
    );
    console.log(`# 1000x700: header ${share.header}px, question bar ${share.questions}px, panel ${share.height}px`);
    await s.screenshot('3-reload-pending-approval/1000x700-question-bar');
    await runPanel(s.page).locator('header button.meta-toggle').click();
    await runPanel(s.page).locator('header .stats').waitFor({ state: 'visible', timeout: 5_000 });
    await s.screenshot('3-reload-pending-approval/1000x700-details-unfolded');
    await s.page.setViewportSize({ width: 1400, height: 900 });
    const fin = await approveUntilDone(s.page);
    await assertFinishedCleanly(s, fin);
    const tabs = await runTabs(s.page);
    assert.deepEqual(tabs.length, 1, `one Run tab at the end: ${JSON.stringify(tabs)}`);
    assert.doesNotMatch(tabs[0], /waiting for you/, "the finished run's tab no longer says it waits");
  });
});

test("4. a file the agent wrote changed while interrupted: error, Show Diff, Restore Agent's Version, finish", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const dieTool = toolAfterFirstWrite(m.ref);
  await m.suite.run(m.scenario('4-workspace-changed', { [DIE_AFTER]: dieTool }), async (s) => {
    const pid = s.extensionHostPid();
    await startTriage(s.page, m.task.name);
    await approveUntilExit(s, pid);
    const interrupted = await onlyRun(s.stateDir);
    assert.ok(interrupted.files.length > 0, `the interrupted run (died after ${dieTool}) has files on record`);
    const target = interrupted.files[0].path;
    const abs = path.join(s.workspace, target);
    const agents = fs.readFileSync(abs, 'utf8');
    fs.writeFileSync(abs, agents + "\n// changed behind the agent's back by the e2e test\n");

    await reloadAndResume(s, pid);
    const error = await notificationMessage(await waitForNotification(s.page, WORKSPACE_CHANGED, 60_000));
    assert.ok(error.includes(target), `the error names ${target}: ${error}`);
    await s.screenshot('4-workspace-changed/stopped-not-a-question');
    await clickNotificationButton(s.page, WORKSPACE_CHANGED, 'Show Diff');
    await waitForDiffEditor(s.page);
    await s.screenshot('diff');
    await clickNotificationButton(s.page, WORKSPACE_CHANGED, 'Restore');
    await s.page.locator('.monaco-dialog-box').filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await s.screenshot('4-workspace-changed/restore-confirmation');
    // Restore asks first, and keeps the person's version beside the run's state (issue #23 item 7).
    const confirm = await clickDialogButton(s.page, /Restore the agent's version/, 'Restore');
    assert.ok(confirm.includes(target), `the confirmation names ${target}: ${confirm}`);
    await waitFor(() => fs.readFileSync(abs, 'utf8') === agents, { what: `${target} to be restored to the agent's version`, timeoutMs: 15_000 });
    const kept = await notificationMessage(await waitForNotification(s.page, /is kept in/, 30_000));
    await s.screenshot('4-workspace-changed/kept-version');
    const keptFolder = /kept in (.+?)\.?$/.exec(kept)?.[1] ?? '';
    const keptCopy = path.join(keptFolder, target);
    assert.ok(fs.existsSync(keptCopy), `the person's version is kept at ${keptCopy}: ${kept}`);
    assert.match(fs.readFileSync(keptCopy, 'utf8'), /changed behind the agent's back/);
    const fin = await approveUntilDone(s.page);
    await assertFinishedCleanly(s, fin);
  });
});

test('5. a second window on the same folder reports the run open elsewhere and does not run it', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  await m.suite.run(m.scenario('5-second-window'), async (s) => {
    await startTriage(s.page, m.task.name);
    await waitForNotification(s.page, APPROVAL, 120_000);
    const before = await pausedRun(s);
    const page2 = await s.openWindow();
    const warning = await notificationMessage(await waitForNotification(page2, OPEN_ELSEWHERE, 60_000));
    assert.ok(warning.includes(before.runId), `the warning names run ${before.runId}: ${warning}`);
    assert.equal(await hasNotification(page2, APPROVAL), false, 'the second window does not ask the approval');
    // Its Approve picker marks the first window's question as asked there; picking it says where (issue #23 item 14).
    await runCommand(page2, 'Durable Triage: Approve');
    const rows = await quickPickRows(page2);
    assert.ok(rows.length === 1 && /asked in another window/.test(rows[0]), `the question is marked as asked in another window: ${JSON.stringify(rows)}`);
    await s.screenshot('5-second-window/approve-picker-elsewhere', page2);
    await page2.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ visible: true }).first().click();
    const where = await notificationMessage(
      await waitForNotification(page2, /is asked in the window \(or triage process\) that has run \S+ open; answer it there/, 15_000),
    );
    assert.ok(where.includes(before.runId), `it names the run: ${where}`);
    await s.screenshot('5-second-window/asked-elsewhere', page2);
    // Its Run panel says the question is asked in the other window, with no Approve that could not act.
    const bar = runPanel(page2).locator('section.questions');
    await bar.locator('.elsewhere').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      await bar
        .locator('button')
        .filter({ hasText: /Approve|Deny/ })
        .count(),
      0,
      'no Approve or Deny in the second window',
    );
    await s.screenshot('5-second-window/panel-asked-elsewhere', page2);
    const during = await onlyRun(s.stateDir);
    assert.equal(during.turns, before.turns, 'the second window made no model call');
    assert.equal(during.restarts, before.restarts, 'the second window did not resume the run');
    assert.equal(during.phase, 'paused');
    const fin = await approveUntilDone(s.page);
    await assertFinishedCleanly(s, fin);
  });
});
