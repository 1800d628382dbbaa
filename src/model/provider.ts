/**
 * One interface for every model: the recorded model, Anthropic, OpenAI-compatible
 * servers and (in the extension) VS Code's Language Model API.
 */
import type { ToolSpec } from '../core/tool-schema';
import type { Message, ModelReply, ContextSummary } from '../core/conversation';
import type { PriceTable } from './prices';
import type { RetryOptions } from './retry';
import type { FetchFn } from './sdk';

export interface ModelRequest {
  system: string;
  /** The messages to send (after the context policy: the summary replaces older ones). */
  messages: Message[];
  summary?: ContextSummary;
  tools: ToolSpec[];
  /** Zero-based index of this model call within the run's life (== turns so far). */
  turn: number;
}

/** What every live provider is built with (each adds its own: a key, caching...). */
export interface LiveProviderOptions {
  /** The API's base URL (default: the provider's environment variable, else its public API). */
  baseUrl?: string;
  model: string;
  /** The reply's token limit (each provider says its default). */
  maxTokens?: number;
  prices?: PriceTable;
  retry?: RetryOptions;
  /** An attempt that receives nothing for this long is retried (default 120 s). */
  timeoutMs?: number;
  /** The fetch the SDK's requests go through (default: the global fetch). */
  fetch?: FetchFn;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Told about replies counted as $0 (an unpriced model, or a server that reported no usage). */
  warn?: (message: string) => void;
}

export interface ModelProvider {
  /** "recorded", "anthropic", "openai", "vscode-lm". */
  readonly provider: string;
  readonly model: string;
  /** The prices this provider's replies are counted with; the loop's pre-call budget estimate uses them too. */
  readonly prices: PriceTable;
  /** One paid reply. Retries inside are still one reply. Rejects on abort. */
  complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply>;
}
