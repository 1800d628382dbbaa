// The real-editor scenarios of issue 13: the Run panel during a run and after a reload (the
// same transcript, the restart marked), an approval answered in the panel, a stale
// notification that says it was decided, Review Changes and Undo, and a bundled task refused
// on a folder that is not its sample. Each saves screenshots in test-artifacts/ on success too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type E2eSession,
  clickNotificationButton,
  isAlive,
  notificationMessage,
  paletteCommands,
  pickQuickItem,
  quickPickRows,
  runCommand,
  triageJson,
  waitFor,
  waitForDiffEditor,
  waitForNotification,
} from './harness';
import { REPO_ROOT } from './paths';
import { DIE_AFTER, SCENARIO_TIMEOUT_MS, mainTaskSuite } from './main-task';
import { onlyRun } from './reference';
import { assertFinishedCleanly } from './finish';
import { APPROVAL, CMD_START, RESUME_OFFER, approveUntilDone, exactly, startTriage } from './triage-ui';
import { clickDialogButton, clickPanelButton, panelEntries, panelHistory, runPanel, scrollPanelTo, waitForRunPanel } from './run-panel';

const m = mainTaskSuite();
const RESTART = /^Restart 1: resumed at turn \d+ after the process ended/;

interface CliTranscript {
  entries: { kind: string; title?: string }[];
}

async function cliHistory(s: E2eSession, runId: string): Promise<string[]> {
  const t = await triageJson<CliTranscript>(['show', '--state', s.stateDir, '--run', runId, '--transcript']);
  return t.entries.filter((e) => e.kind === 'history').map((e) => e.title ?? '');
}

test(
  '6. the Run panel during a run, after a crash and a reload the same transcript with the restart marked; an approval answered in the panel; a stale notification says it was decided',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    await m.suite.run(m.scenario('6-run-panel', { [DIE_AFTER]: 'code_patch' }), async (s) => {
      const pid = s.extensionHostPid();
      await startTriage(s.page, m.task.name);
      await waitForRunPanel(s.page);
      // What the panel showed last before the extension host died (debug.dieAfterTool, right after the first patch):
      // kept from here on, as the host may die before the loop below first looks (a screenshot takes a while).
      let shown: string[] = await waitFor(
        async () => {
          const entries = await panelEntries(s.page);
          return entries.some((e) => /^Turn 5\b/.test(e)) ? entries : undefined;
        },
        { what: 'the Run panel to show turn 5 live', timeoutMs: 60_000, intervalMs: 250 },
      );
      await s.screenshot('6-run-panel/live');
      await waitFor(
        async () => {
          if (!isAlive(pid)) return true;
          shown = await panelEntries(s.page).catch(() => shown);
          return false;
        },
        { what: `extension host ${pid} to kill itself after the first code_patch`, timeoutMs: 120_000, intervalMs: 150 },
      );
      // Entries before the last turn shown were complete (the calls of the last turn may have moved on before the crash).
      const patchAt = shown.map((e) => /^Turn \d+/.test(e)).lastIndexOf(true);
      assert.ok(patchAt > 5, `the panel showed the run live before the crash: ${JSON.stringify(shown.slice(-3))}`);

      await s.waitForNewExtensionHost([pid]);
      s.updateWorkspaceSettings({ [DIE_AFTER]: undefined });
      await s.reload();
      await clickNotificationButton(s.page, RESUME_OFFER, 'Resume');
      await waitForRunPanel(s.page);
      await waitFor(async () => (await panelHistory(s.page)).some((h) => RESTART.test(h)), {
        what: 'the restored Run panel to mark the restart',
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      const after = await panelEntries(s.page);
      assert.deepEqual(after.slice(0, patchAt), shown.slice(0, patchAt), 'after the reload the panel shows the same transcript as before the crash');
      const marker = after.find((e) => RESTART.test(e)) ?? '';
      assert.match(marker, /already done: nothing repeated/, `the restart says what the ladder found: ${marker}`);
      assert.match(marker, /reused: not paid for again/);
      await scrollPanelTo(s.page, '.transcript > section.history');
      await s.screenshot('6-run-panel/after-reload-restart-marked');

      // The first approval: answered in the panel; its notification, clicked afterwards, says it was decided.
      const asked = await notificationMessage(await waitForNotification(s.page, APPROVAL, 120_000));
      await runPanel(s.page).locator('section.questions').waitFor({ state: 'visible', timeout: 30_000 });
      await scrollPanelTo(s.page, '.transcript > section.call.status-waiting');
      await s.screenshot('6-run-panel/approval-in-panel');
      await clickPanelButton(s.page, 'Approve', 'section.questions');
      const question = asked.replace(/^Durable Triage: approve \S+\? /, '');
      await waitFor(async () => !(await runPanel(s.page).locator('section.questions').allInnerTexts()).join('\n').includes(question), {
        what: `the panel to take the answer to "${question}"`,
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      await clickNotificationButton(s.page, exactly(asked), 'Approve');
      const staleItem = await waitForNotification(s.page, /already approved by you, in the Run panel; this notification no longer acts/, 30_000);
      assert.match(await notificationMessage(staleItem), exactly(`already approved by you, in the Run panel; this notification no longer acts: ${question}.`));
      await staleItem
        .locator('.codicon-notifications-expand')
        .first()
        .click({ timeout: 2_000 })
        .catch(() => undefined); // a toast under another is collapsed to one line
      await s.screenshot('6-run-panel/stale-notification');

      const fin = await approveUntilDone(s.page);
      const run = await assertFinishedCleanly(s, fin, m.task, m.ref);
      assert.ok((run.restarts ?? 0) >= 1, `the run was resumed (restarts ${run.restarts})`);
      await waitFor(async () => (await panelEntries(s.page)).some((e) => /^Final answer/.test(e)), {
        what: 'the panel to show the final answer',
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      const shownHistory = await panelHistory(s.page);
      assert.deepEqual(shownHistory, await cliHistory(s, run.runId), 'the panel and `triage show --transcript` tell the same history');
      assert.ok(
        (await panelEntries(s.page)).some((e) => e.includes('Approved by you, in the Run panel.')),
        'the transcript says who approved',
      );
      await s.screenshot('6-run-panel/finished');
    });
  },
);

test(
  '7. Review Changes shows every file the run wrote against the files before it; Undo puts them back after a confirmation',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    await m.suite.run(m.scenario('7-review-undo'), async (s) => {
      await startTriage(s.page, m.task.name);
      const fin = await approveUntilDone(s.page);
      await assertFinishedCleanly(s, fin, m.task, m.ref);
      await runCommand(s.page, 'Notifications: Clear All Notifications');
      await waitForRunPanel(s.page);
      await waitFor(async () => (await panelEntries(s.page)).some((e) => /^Final answer/.test(e)), {
        what: 'the panel to show the final answer',
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      await scrollPanelTo(s.page, 'aside.summary');
      await s.screenshot('7-review-undo/run-panel-finished');

      await clickPanelButton(s.page, 'Review Changes', 'header');
      const diff = await waitForDiffEditor(s.page);
      assert.ok(
        await diff.evaluate(
          (el) => el.classList.contains('multiDiffEditor') || el.closest('.multiDiffEditor') !== null || document.querySelector('.multiDiffEditor') !== null,
        ),
        'one multi-file diff',
      );
      await s.screenshot('7-review-undo/review-changes');

      await s.page
        .locator('.tabs-container .tab')
        .filter({ hasText: /^Run: / })
        .first()
        .click();
      await waitForRunPanel(s.page);
      await clickPanelButton(s.page, "Undo Run's Changes", 'header');
      const dialog = s.page
        .locator('.monaco-dialog-box')
        .filter({ visible: true })
        .filter({ hasText: /Undo the changes of run/ })
        .first();
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      await s.screenshot('7-review-undo/undo-confirmation');
      await clickDialogButton(s.page, /Undo the changes of run/, "Undo Run's Changes");
      const sample = path.join(REPO_ROOT, 'samples', m.task.name, 'workspace');
      await waitFor(
        () =>
          [...m.ref.files.keys()].every((rel) =>
            fs.existsSync(path.join(sample, rel))
              ? fs.readFileSync(path.join(s.workspace, rel), 'utf8') === fs.readFileSync(path.join(sample, rel), 'utf8')
              : !fs.existsSync(path.join(s.workspace, rel)),
          ),
        {
          what: 'every file the run wrote to be back as in the sample (and the files it created gone)',
          timeoutMs: 30_000,
        },
      );
      await waitFor(async () => (await panelHistory(s.page)).includes("You undid the run's changes"), {
        what: 'the panel to record the undo',
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      await scrollPanelTo(s.page, '.transcript > section.history.tone-warning');
      await s.screenshot('7-review-undo/undone');
      // The Undo picker marks the run as undone already (issue #23 item 14).
      await runCommand(s.page, "Durable Triage: Undo Run's Changes");
      const rows = await quickPickRows(s.page);
      assert.ok(rows.length === 1 && /undone already/.test(rows[0]), `the picker says the run is undone already: ${JSON.stringify(rows)}`);
      await s.screenshot('7-review-undo/undo-picker-undone');
      await s.page.keyboard.press('Escape');
      const files = (await onlyRun(s.stateDir)).files.map((f) => f.path).sort();
      assert.deepEqual(files, [...m.ref.files.keys()].sort(), 'the run keeps its record of what it wrote');
      // Deleting the run: the open panel says so in a person's words (issue #23 item 8).
      await runCommand(s.page, 'Durable Triage: Delete Run');
      await s.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ visible: true }).first().click();
      await clickDialogButton(s.page, /Delete run/, 'Delete Run');
      await runPanel(s.page).locator('p.gone').waitFor({ state: 'visible', timeout: 30_000 });
      await s.screenshot('7-review-undo/deleted-run-panel');
    });
  },
);

test(
  '8. a bundled task started on a folder that is not its sample is refused, with a copy of the sample offered; nothing is written',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    await m.suite.run(m.scenario('8-wrong-folder'), async (s) => {
      const list = (dir: string): string[] =>
        fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((p) => !p.startsWith('.vscode'))
          .sort();
      const before = list(s.workspace);
      // No run yet: the palette does not offer Approve, Deny, Cancel or Resume (issue #23 item 14).
      const offered = await paletteCommands(s.page, 'Durable Triage: ', CMD_START, { whileOpen: () => s.screenshot('8-wrong-folder/palette-no-run') });
      for (const c of ['Approve', 'Deny', 'Cancel Run', 'Resume Run', "Undo Run's Changes"])
        assert.ok(!offered.includes(`Durable Triage: ${c}`), `the palette hides ${c} with no run: ${JSON.stringify(offered)}`);
      await runCommand(s.page, CMD_START);
      await pickQuickItem(s.page, 'batch-parser');
      const refusal = /Durable Triage: batch-parser works on its own sample project, and .* is not a copy of it/;
      const item = await waitForNotification(s.page, refusal, 30_000);
      const message = await notificationMessage(item);
      assert.match(message, new RegExp(`or start ${m.task.name}, whose sample this folder is`));
      assert.equal(await item.locator('.monaco-button').filter({ hasText: 'Open a Copy of the Sample…' }).count(), 1, 'it offers a copy of the sample');
      await s.screenshot('8-wrong-folder/refused');
      assert.deepEqual(list(s.workspace), before, 'nothing was written into the folder');
      const runs = fs.existsSync(path.join(s.stateDir, 'runs')) ? fs.readdirSync(path.join(s.stateDir, 'runs')) : [];
      assert.deepEqual(runs, [], 'no run was created');
    });
  },
);
