/**
 * Where a keyed model provider's API key and server address come from: the rules, written once
 * for the CLI (factory.ts), the editor (extension/models.ts, extension/logic/resume-model.ts)
 * and the triage job (triage/job.ts).
 *
 * - Key: the one given (the editor's secret store) wins, else ANTHROPIC_API_KEY /
 *   OPENAI_API_KEY. Anthropic always needs one; an OpenAI-compatible
 *   server needs one only at OpenAI's own API (a local server may run without).
 * - Base URL: the one chosen (--base-url, the durableTriage.model.baseUrl setting, the one saved
 *   with the run), else ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the provider's public API.
 *   Each is checked (base-url.ts) before any call, and before it is saved with a run.
 * - A run saves the base URL it was started with (its options' `baseUrl`); it is resumed with
 *   that one unless another is chosen.
 */
import { checkBaseUrl } from './base-url';

export type KeyedProviderName = 'anthropic' | 'openai';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface ProviderRules {
  /** In messages: "No Anthropic API key". */
  label: string;
  keyVariable: 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY';
  baseUrlVariable: 'ANTHROPIC_BASE_URL' | 'OPENAI_BASE_URL';
  defaultBaseUrl: string;
}

export const PROVIDER_RULES: Readonly<Record<KeyedProviderName, ProviderRules>> = {
  anthropic: { label: 'Anthropic', keyVariable: 'ANTHROPIC_API_KEY', baseUrlVariable: 'ANTHROPIC_BASE_URL', defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL },
  openai: { label: 'OpenAI', keyVariable: 'OPENAI_API_KEY', baseUrlVariable: 'OPENAI_BASE_URL', defaultBaseUrl: OPENAI_DEFAULT_BASE_URL },
};

/** Where a chosen base URL came from, when the choice does not say ("--base-url"). */
export const CHOSEN_BASE_URL = 'The model base URL';

/** A base URL chosen for a run, and where it came from (for the message when it is refused). */
export interface BaseUrlChoice {
  baseUrl?: string;
  baseUrlFrom?: string;
}

/** The chosen base URL, checked; undefined when none was chosen. */
export function chosenBaseUrl(choice: BaseUrlChoice | undefined): string | undefined {
  return choice?.baseUrl ? checkBaseUrl(choice.baseUrl, choice.baseUrlFrom ?? CHOSEN_BASE_URL) : undefined;
}

/** The base URL `provider` is reached at: the chosen one, else the environment's, else its public API; each checked. */
export function baseUrlFor(provider: KeyedProviderName, choice: BaseUrlChoice | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = chosenBaseUrl(choice);
  if (chosen) return chosen;
  const variable = PROVIDER_RULES[provider].baseUrlVariable;
  const fromEnv = env[variable];
  return fromEnv ? checkBaseUrl(fromEnv, variable) : PROVIDER_RULES[provider].defaultBaseUrl;
}

/** The key `given` (an empty one counts as none), else the environment's. */
export function apiKeyFor(provider: KeyedProviderName, given: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return given || env[PROVIDER_RULES[provider].keyVariable] || undefined;
}

/** True when the base URL is OpenAI's own API (which needs a key). */
export function isOpenAIHosted(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** Whether `provider` at `baseUrl` needs a key: Anthropic always, an OpenAI-compatible server only at OpenAI's own API. */
export function needsKey(provider: KeyedProviderName, baseUrl: string): boolean {
  return provider === 'anthropic' || isOpenAIHosted(baseUrl);
}

/** The run's saved base URL (its config's options), if it was started with one. */
export function savedBaseUrl(options: Record<string, string> | undefined): string | undefined {
  return options?.baseUrl || undefined;
}

/** The options entry that saves a run's chosen base URL. */
export function baseUrlOption(choice: BaseUrlChoice | undefined): { baseUrl?: string } {
  return choice?.baseUrl ? { baseUrl: choice.baseUrl } : {};
}

/** Where a saved base URL came from, in messages: "The base URL saved with run <id>" (or "with this run"). */
export function savedBaseUrlFrom(runId?: string): string {
  return `The base URL saved with ${runId === undefined ? 'this run' : `run ${runId}`}`;
}
