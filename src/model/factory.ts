/**
 * Building a provider from a choice (CLI flags, editor settings) and the environment.
 *
 * Where the key and the base URL come from, and which provider needs a key: provider-config.ts.
 * A base URL that is not an http(s) URL or holds a user name or password is refused here,
 * before any call (base-url.ts).
 */
import { BadInputError } from '../core/errors';
import { PROVIDER_RULES, apiKeyFor, baseUrlFor, needsKey } from './provider-config';
import type { ModelProvider } from './provider';
import type { Recording } from './recording-format';
import { PriceTable } from './prices';
import { AnthropicProvider } from './anthropic';
import { OpenAIProvider } from './openai';
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
      if (!choice.recording)
        throw new BadInputError('The recorded model needs a recording to replay; pick a task that has one, or choose --model anthropic|openai.');
      return new RecordedModel(choice.recording, prices);
    }
    case 'anthropic': {
      const baseUrl = baseUrlFor('anthropic', choice, env);
      const apiKey = apiKeyFor('anthropic', choice.apiKey, env);
      if (!apiKey) throw new BadInputError(`No Anthropic API key: set ${PROVIDER_RULES.anthropic.keyVariable}, ${SET_KEY}.`);
      return new AnthropicProvider({ apiKey, baseUrl, model: choice.model || DEFAULT_MODELS.anthropic, ...common });
    }
    case 'openai': {
      const apiKey = apiKeyFor('openai', choice.apiKey, env);
      const baseUrl = baseUrlFor('openai', choice, env);
      if (!apiKey && needsKey('openai', baseUrl)) {
        const { keyVariable, baseUrlVariable } = PROVIDER_RULES.openai;
        throw new BadInputError(
          `No OpenAI API key: set ${keyVariable}, ${SET_KEY}. (A local server needs none: set ${baseUrlVariable} or --base-url to its address.)`,
        );
      }
      return new OpenAIProvider({ ...(apiKey ? { apiKey } : {}), baseUrl, model: choice.model || DEFAULT_MODELS.openai, ...common });
    }
    default:
      throw new BadInputError(`Unknown model provider "${(choice as { provider: string }).provider}": use recorded, anthropic or openai.`);
  }
}
