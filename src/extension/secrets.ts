/**
 * API keys, kept only in VS Code's SecretStorage: never in settings, the log or a checkpoint
 * (the run state records the provider and model name, not the key).
 */
import * as vscode from 'vscode';
import { PROVIDER_RULES, type KeyedProviderName } from '../model/provider-config';

export type KeyedProvider = KeyedProviderName;

export const KEY_PROVIDERS: readonly { provider: KeyedProvider; label: string; env: string }[] = [
  { provider: 'anthropic', label: 'Anthropic', env: PROVIDER_RULES.anthropic.keyVariable },
  { provider: 'openai', label: 'OpenAI-compatible', env: PROVIDER_RULES.openai.keyVariable },
];

function secretName(p: KeyedProvider): string {
  return `durableTriage.apiKey.${p}`;
}

export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(p: KeyedProvider): Promise<string | undefined> {
    return (await this.secrets.get(secretName(p))) || undefined;
  }

  /** "Set API Key": pick the provider (unless given), type the key (hidden); an empty key removes the stored one. */
  async prompt(p?: KeyedProvider): Promise<KeyedProvider | undefined> {
    let provider = p;
    if (!provider) {
      const pick = await vscode.window.showQuickPick(
        KEY_PROVIDERS.map((k) => ({ label: k.label, description: `used instead of ${k.env}`, provider: k.provider })),
        { title: 'Durable Triage: Set API Key', placeHolder: 'Which provider is the key for?' },
      );
      if (!pick) return undefined;
      provider = pick.provider;
    }
    const label = KEY_PROVIDERS.find((k) => k.provider === provider)?.label ?? provider;
    const key = await vscode.window.showInputBox({
      title: `Durable Triage: ${label} API key`,
      prompt: "Stored in VS Code's secret storage only (never in settings, logs or checkpoints). Leave empty to remove the stored key.",
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return undefined;
    if (key.trim() === '') {
      await this.secrets.delete(secretName(provider));
      void vscode.window.showInformationMessage(`Durable Triage: the stored ${label} API key was removed.`);
    } else {
      await this.secrets.store(secretName(provider), key.trim());
      void vscode.window.showInformationMessage(`Durable Triage: the ${label} API key is stored.`);
    }
    return provider;
  }
}
