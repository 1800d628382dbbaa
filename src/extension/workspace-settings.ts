/**
 * Tells the user about workspace values of settings that were set aside (logic/settingScopes):
 * a warning, once per setting and value in this window, for the ones only the user's settings
 * may give; a modal question, once per setting and value in this window, for the workspace's
 * test command or tracker, which is used from then on once allowed (remembered per workspace
 * and value in the extension's global state).
 */
import * as vscode from 'vscode';
import { ALLOW_SETTING, confirmSettingQuestion, confirmationKey, ignoredSettingMessage, type SetAside } from './logic/setting-scopes';

export class WorkspaceSettingsNotices {
  /** The set-aside values told about (or asked about) in this window. */
  private readonly told = new Set<string>();

  constructor(
    private readonly globalState: vscode.Memento,
    private readonly workspace: () => string,
    private readonly log: vscode.LogOutputChannel,
    /** Called after the user allowed a value (the settings read differently now). */
    private readonly allowedChanged: () => void,
  ) {}

  tell(setAside: readonly SetAside[]): void {
    for (const s of setAside) {
      const id = JSON.stringify([s.key, s.value]);
      if (this.told.has(id)) continue;
      this.told.add(id);
      if (s.kind === 'user-only') {
        const m = ignoredSettingMessage(s.key);
        this.log.warn(m);
        void vscode.window.showWarningMessage(m);
      } else {
        void this.ask(s).catch((e: Error) => this.log.error(`could not ask about durableTriage.${s.key}: ${e.message}`));
      }
    }
  }

  private async ask(s: SetAside): Promise<void> {
    const q = confirmSettingQuestion(s.key, s.value);
    this.log.info(`the workspace's durableTriage.${s.key} waits for your yes; the user setting is used until then`);
    const pick = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, ALLOW_SETTING);
    if (pick !== ALLOW_SETTING) return;
    await this.globalState.update(confirmationKey(this.workspace(), s.key, s.value), true);
    this.log.info(`the workspace's durableTriage.${s.key} is allowed in this workspace`);
    this.allowedChanged();
  }
}
