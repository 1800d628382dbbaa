/**
 * The Sentry auth token, kept only in VS Code's SecretStorage: never in settings, the log, a
 * checkpoint or the transcript (a run saves the Sentry project, URL and query, never the token).
 */
import * as vscode from 'vscode';

const SECRET = 'durableTriage.sentryToken';

export class SentryToken {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET)) || undefined;
  }

  /** The stored token, else asked for (hidden) and stored; undefined: the person cancelled. */
  async getOrAsk(project: string): Promise<string | undefined> {
    return (await this.get()) ?? (await this.prompt(project));
  }

  /** "Set Sentry Token": type the token (hidden); an empty one removes the stored token. */
  async prompt(project?: string): Promise<string | undefined> {
    const token = await vscode.window.showInputBox({
      title: `Durable Triage: Sentry auth token${project ? ` for ${project}` : ''}`,
      prompt:
        "An auth token with the event:read and project:read scopes. Stored in VS Code's secret storage only (never in settings, logs or checkpoints). Leave empty to remove the stored token.",
      password: true,
      ignoreFocusOut: true,
    });
    if (token === undefined) return undefined;
    if (token.trim() === '') {
      await this.secrets.delete(SECRET);
      void vscode.window.showInformationMessage('Durable Triage: the stored Sentry token was removed.');
      return undefined;
    }
    await this.secrets.store(SECRET, token.trim());
    return token.trim();
  }
}
