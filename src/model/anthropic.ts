/**
 * The Anthropic Messages API (POST {baseUrl}/v1/messages) with tool use, streamed.
 * One complete() is one paid reply however many attempts it took (see retry.ts).
 */
import type { ModelReply } from '../durable/state';
import type { ModelProvider, ModelRequest } from './provider';
import { PriceTable } from './prices';
import { postJson, readJson, readSse, isEventStream, withAttemptTimeout, TransientError, type FetchFn } from './http';
import { withRetry, type RetryOptions } from './retry';
import { anthropicBody, type AnthropicBody } from './anthropic-request';
import { AnthropicStream, parseAnthropicMessage } from './anthropic-stream';
import { Pricer, fallbackCallId, type ParsedReply } from './reply';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions {
  apiKey: string;
  /** Default: ANTHROPIC_BASE_URL, else https://api.anthropic.com. */
  baseUrl?: string;
  model: string;
  /** The reply's max_tokens (default 8192). */
  maxTokens?: number;
  prices?: PriceTable;
  retry?: RetryOptions;
  /** An attempt that receives nothing for this long is retried (default 120 s). */
  timeoutMs?: number;
  fetch?: FetchFn;
  /** Prompt-caching breakpoints on the system prompt and the conversation's end (default true). */
  promptCache?: boolean;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Told about replies counted as $0 (unpriced model). */
  warn?: (message: string) => void;
}

export class AnthropicProvider implements ModelProvider {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly url: string;
  private readonly pricer: Pricer;

  constructor(private readonly o: AnthropicOptions) {
    this.model = o.model;
    const base = o.baseUrl ?? process.env.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL;
    this.url = `${base.replace(/\/+$/, '')}/v1/messages`;
    this.pricer = new Pricer(o.prices, o.warn);
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const body = anthropicBody(req, {
      model: this.model,
      maxTokens: this.o.maxTokens ?? 8192,
      promptCache: this.o.promptCache ?? true,
      stream: this.o.stream ?? true,
    });
    const parsed = await withRetry(
      () => withAttemptTimeout(signal, this.o.timeoutMs ?? 120_000, (s, activity) => this.attempt(body, fallbackCallId(req.turn), s, activity)),
      signal,
      { provider: `Anthropic (${this.url})`, hint },
      this.o.retry,
    );
    return this.pricer.reply(parsed, this.model);
  }

  private async attempt(body: AnthropicBody, fallbackId: (i: number) => string, signal: AbortSignal, activity: () => void): Promise<ParsedReply> {
    const headers = { 'x-api-key': this.o.apiKey, 'anthropic-version': ANTHROPIC_VERSION, accept: body.stream ? 'text/event-stream' : 'application/json' };
    const res = await postJson(this.o.fetch ?? fetch, this.url, headers, body, signal);
    activity();
    if (!isEventStream(res) || !res.body) return parseAnthropicMessage((await readJson(res, signal)) as Parameters<typeof parseAnthropicMessage>[0], fallbackId);
    const stream = new AnthropicStream(fallbackId);
    for await (const ev of readSse(res.body, signal, activity)) {
      stream.onEvent(ev);
      if (stream.done) break;
    }
    if (!stream.done) throw new TransientError('the reply stream ended before message_stop');
    return stream.result();
  }
}

function hint(status: number): string | undefined {
  if (status === 401) return 'Check your API key: set ANTHROPIC_API_KEY, or run "Durable Triage: Set API Key" in the editor.';
  if (status === 404) return 'Check the model name and ANTHROPIC_BASE_URL.';
  if (status === 529) return 'Anthropic is overloaded; try again in a few minutes.';
  return undefined;
}
