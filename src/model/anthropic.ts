/**
 * The Anthropic Messages API (POST {baseUrl}/v1/messages) with tool use, streamed, through
 * the vendor's SDK (@anthropic-ai/sdk) with its own retries off: our retry policy
 * (retry.ts) runs the attempts, so one complete() is one paid reply however many
 * attempts it took, and a stream cut mid-reply is retried too.
 *
 * The SDK's base client (BaseAnthropic) does the requests: its auth and version headers,
 * error types, timeout and SSE parsing, without the resource classes of every other
 * endpoint (which would add about 800 KB to each bundle). It is loaded on the first call
 * (sdk-clients.ts).
 */
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelReply } from '../core/conversation';
import type { LiveProviderOptions, ModelProvider, ModelRequest } from './provider';
import { PriceTable } from './prices';
import { withAttemptTimeout, TransientError } from './attempt';
import { attemptWire, loadClients, requestError, sdkEvents, isEventStream, readJson, type AttemptWire } from './sdk';
import { withRetry } from './retry';
import { anthropicBody, type AnthropicBody } from './anthropic-request';
import { AnthropicStream, anthropicStreamError, parseAnthropicMessage, type AnthropicWholeMessage } from './anthropic-reply';
import { Pricer, fallbackCallId, type ParsedReply } from './reply';
import { baseUrlFor } from './provider-config';

/** baseUrl default: ANTHROPIC_BASE_URL, else https://api.anthropic.com (provider-config.ts); maxTokens default 8192. */
export interface AnthropicOptions extends LiveProviderOptions {
  apiKey: string;
  /** Prompt-caching breakpoints on the system prompt and the conversation's end (default true). */
  promptCache?: boolean;
}

export class AnthropicProvider implements ModelProvider {
  readonly provider = 'anthropic';
  readonly model: string;
  readonly prices: PriceTable;
  private readonly baseUrl: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly pricer: Pricer;

  constructor(private readonly o: AnthropicOptions) {
    this.model = o.model;
    this.baseUrl = (o.baseUrl ?? baseUrlFor('anthropic', undefined, process.env)).replace(/\/+$/, '');
    this.url = `${this.baseUrl}/v1/messages`;
    this.timeoutMs = o.timeoutMs ?? 120_000;
    this.prices = o.prices ?? new PriceTable();
    this.pricer = new Pricer(this.prices, o.warn);
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const body = anthropicBody(req, {
      model: this.model,
      maxTokens: this.o.maxTokens ?? 8192,
      promptCache: this.o.promptCache ?? true,
      stream: this.o.stream ?? true,
    });
    const parsed = await withRetry(
      () => withAttemptTimeout(signal, this.timeoutMs, (s, activity) => this.attempt(body, fallbackCallId(req.turn), s, attemptWire(activity, this.o.fetch))),
      signal,
      { provider: `Anthropic (${this.url})`, hint },
      this.o.retry,
    );
    return this.pricer.reply(parsed, this.model);
  }

  /** One request with a client of its own: no SDK retries, this attempt's fetch and timeout. */
  private async attempt(body: AnthropicBody, fallbackId: (i: number) => string, signal: AbortSignal, wire: AttemptWire): Promise<ParsedReply> {
    const { BaseAnthropic } = loadClients();
    const client = new BaseAnthropic({ apiKey: this.o.apiKey, baseURL: this.baseUrl, maxRetries: 0, timeout: this.timeoutMs, fetch: wire.fetch });
    const failed = (e: unknown): unknown => requestError(e, BaseAnthropic, wire, { url: this.url, timeoutMs: this.timeoutMs });
    if (!body.stream) {
      const res = await client
        .post('/v1/messages', { body, signal })
        .asResponse()
        .catch((e: unknown) => Promise.reject(failed(e)));
      return parseAnthropicMessage((await readJson(res, signal)) as AnthropicWholeMessage, fallbackId);
    }
    const { data: events, response } = await client
      .post<Stream<RawMessageStreamEvent>>('/v1/messages', { body, stream: true, signal })
      .withResponse()
      .catch((e: unknown) => Promise.reject(failed(e)));
    if (!isEventStream(response)) return parseAnthropicMessage((await readJson(response, signal)) as AnthropicWholeMessage, fallbackId);
    const stream = new AnthropicStream(fallbackId);
    for await (const ev of sdkEvents(events, BaseAnthropic, anthropicStreamError)) {
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
