/**
 * Building a provider from a choice (CLI flags, editor settings) and the environment.
 *
 * Keys: an explicit apiKey wins, else ANTHROPIC_API_KEY / OPENAI_API_KEY. OpenAI's own API
 * needs a key; a local OpenAI-compatible server (any other base URL) may run without one.
 * Base URLs: the choice's, else ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the public API; one
 * that is not an http(s) URL or holds a user name or password is refused here, before any call
 * (base-url.ts).
 */
import { BadInputError } from '../core/errors';
import { checkBaseUrl } from './base-url';
import type { ModelProvider } from './provider';
import type { Recording } from './recording-format';
import { PriceTable } from './prices';
import { AnthropicProvider, ANTHROPIC_DEFAULT_BASE_URL } from './anthropic';
import { OpenAIProvider, OPENAI_DEFAULT_BASE_URL, isOpenAIHosted } from './openai';
import { RecordedModel } from './recorded-provider';
import type { RetryOptions } from './retry';
import type { FetchFn } from './sdk';

export type ProviderName = 'recorded' | 'anthropic' | 'openai';

export interface ModelChoice {
  provider: ProviderName;
  /** Default: claude-sonnet-4-5 (anthropic), gpt-4.1-mini (openai), the recording's (recorded). */
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  /** Where baseUrl came from, for the message when it is refused ("--base-url"); default "The model base URL". */
  baseUrlFrom?: string;
  /** Required for 'recorded'. */
  recording?: Recording;
  prices?: PriceTable;
  /** Reply token limit (Anthropic default 8192; OpenAI: the server's default). */
  maxTokens?: number;
  retry?: RetryOptions;
  timeoutMs?: number;
  fetch?: FetchFn;
  /** Told about replies counted as $0 (unpriced). */
  warn?: (message: string) => void;
}

export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-4.1-mini' } as const;

/** The model a provider uses when none is named ('' for a provider without a default). */
export function defaultModelName(provider: string): string {
  return provider === 'anthropic' || provider === 'openai' ? DEFAULT_MODELS[provider] : '';
}

const SET_KEY = 'or run "Durable Triage: Set API Key" in the editor';

/** The choice's base URL, else the environment's, checked; undefined: the provider's public API. */
function baseUrlOf(choice: ModelChoice, env: NodeJS.ProcessEnv, variable: 'ANTHROPIC_BASE_URL' | 'OPENAI_BASE_URL'): string | undefined {
  if (choice.baseUrl) return checkBaseUrl(choice.baseUrl, choice.baseUrlFrom ?? 'The model base URL');
  const fromEnv = env[variable];
  return fromEnv ? checkBaseUrl(fromEnv, variable) : undefined;
}

export function createProvider(choice: ModelChoice, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const prices = choice.prices ?? new PriceTable();
  const common = {
    prices,
    ...(choice.retry ? { retry: choice.retry } : {}),
    ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
    ...(choice.fetch ? { fetch: choice.fetch } : {}),
    ...(choice.warn ? { warn: choice.warn } : {}),
    ...(choice.maxTokens !== undefined ? { maxTokens: choice.maxTokens } : {}),
  };
  switch (choice.provider) {
    case 'recorded': {
      if (!choice.recording) throw new BadInputError('The recorded model needs a recording to replay; pick a task that has one, or choose --model anthropic|openai.');
      return new RecordedModel(choice.recording, prices);
    }
    case 'anthropic': {
      const baseUrl = baseUrlOf(choice, env, 'ANTHROPIC_BASE_URL') ?? ANTHROPIC_DEFAULT_BASE_URL;
      const apiKey = choice.apiKey || env.ANTHROPIC_API_KEY;
      if (!apiKey) throw new BadInputError(`No Anthropic API key: set ANTHROPIC_API_KEY, ${SET_KEY}.`);
      return new AnthropicProvider({ apiKey, baseUrl, model: choice.model || DEFAULT_MODELS.anthropic, ...common });
    }
    case 'openai': {
      const apiKey = choice.apiKey || env.OPENAI_API_KEY;
      const baseUrl = baseUrlOf(choice, env, 'OPENAI_BASE_URL') ?? OPENAI_DEFAULT_BASE_URL;
      if (!apiKey && isOpenAIHosted(baseUrl)) {
        throw new BadInputError(`No OpenAI API key: set OPENAI_API_KEY, ${SET_KEY}. (A local server needs none: set OPENAI_BASE_URL or --base-url to its address.)`);
      }
      return new OpenAIProvider({ ...(apiKey ? { apiKey } : {}), baseUrl, model: choice.model || DEFAULT_MODELS.openai, ...common });
    }
    default:
      throw new BadInputError(`Unknown model provider "${(choice as { provider: string }).provider}": use recorded, anthropic or openai.`);
  }
}
