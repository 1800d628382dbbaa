/**
 * The run store this window works on: the local state folder (the default), or the shared
 * PostgreSQL store of the `durableTriage.store` setting, its password from the secret storage
 * ("Durable Triage: Set Store Password") or PGPASSWORD, never from settings. The store is
 * opened when first needed and kept while the setting stays the same.
 */
import * as vscode from 'vscode';
import type { RunStore } from '../store/run-store';
import type { ExtensionSettings } from './logic/settings';
import * as core from './lazy-modules';

const PASSWORD_SECRET = 'durableTriage.storePassword';

export class WindowStore implements vscode.Disposable {
  private open: { spec: string; store: Promise<RunStore> } | undefined;

  constructor(
    private readonly settings: () => ExtensionSettings,
    private readonly stateDir: () => string,
    private readonly secrets: vscode.SecretStorage,
  ) {}

  /** True when runs live in a shared database (workers and other editors see them too). */
  get shared(): boolean {
    return this.settings().store !== undefined;
  }

  /** The store, opened on first use (a database is contacted only by the first query). */
  get(): Promise<RunStore> {
    const url = this.settings().store;
    const spec = url ?? `files:${this.stateDir()}`;
    if (this.open?.spec !== spec) {
      const old = this.open;
      this.open = { spec, store: this.make(url) };
      void old?.store.then((s) => s.close()).catch(() => undefined);
    }
    return this.open.store;
  }

  private async make(url: string | undefined): Promise<RunStore> {
    const open = core.stores();
    if (url === undefined) return open.openStore(this.stateDir());
    const password = (await this.secrets.get(PASSWORD_SECRET)) || undefined;
    return open.openStore(url, password !== undefined ? { password } : {});
  }

  /** "Set Store Password": typed hidden, kept in the secret storage; empty removes it. The store is opened again with it. */
  async promptPassword(): Promise<void> {
    const pw = await vscode.window.showInputBox({
      title: 'Durable Triage: password of the shared run store',
      prompt: "Stored in VS Code's secret storage only (never in settings or logs); used with the durableTriage.store URL. Leave empty to remove it.",
      password: true,
      ignoreFocusOut: true,
    });
    if (pw === undefined) return;
    if (pw === '') await this.secrets.delete(PASSWORD_SECRET);
    else await this.secrets.store(PASSWORD_SECRET, pw);
    const old = this.open;
    this.open = undefined;
    void old?.store.then((s) => s.close()).catch(() => undefined);
    void vscode.window.showInformationMessage(`Durable Triage: the store password is ${pw === '' ? 'removed' : 'stored'}.`);
  }

  dispose(): void {
    void this.open?.store.then((s) => s.close()).catch(() => undefined);
    this.open = undefined;
  }
}
