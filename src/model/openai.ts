/**
 * OpenAI-compatible chat completions (POST {baseUrl}/chat/completions) with tools,
 * streamed, through the vendor's SDK (openai) with its own retries off: OpenAI itself,
 * and local servers such as Ollama or vLLM (which may need no key). Our retry policy
 * (retry.ts) runs the attempts, so one complete() is one paid reply however many
 * attempts it took, and a stream cut mid-reply is retried too. The SDK is loaded on the
 * first call (sdk-clients.ts).
 */
import type { ModelReply } from '../core/conversation';
import type { LiveProviderOptions, ModelProvider, ModelRequest } from './provider';
import { PriceTable } from './prices';
import { withAttemptTimeout, TransientError } from './attempt';
import { attemptWire, loadClients, requestError, sdkEvents, isEventStream, readJson, type AttemptWire } from './sdk';
import { withRetry } from './retry';
import { openaiBody, type OpenAIBody } from './openai-request';
import { OpenAIStream, openaiStreamError, parseOpenAICompletion, type OpenAIWholeCompletion } from './openai-reply';
import { Pricer, fallbackCallId, type ParsedReply } from './reply';
import { baseUrlFor, isOpenAIHosted } from './provider-config';

/**
 * baseUrl default: OPENAI_BASE_URL, else https://api.openai.com/v1 (provider-config.ts). maxTokens unset sends none
 * (the server's default); OpenAI gets max_completion_tokens, other servers max_tokens.
 */
export interface OpenAIOptions extends LiveProviderOptions {
  /** Sent as a Bearer token; omit for a local server that needs none. */
  apiKey?: string;
}

export class OpenAIProvider implements ModelProvider {
  readonly provider = 'openai';
  readonly model: string;
  readonly prices: PriceTable;
  private readonly baseUrl: string;
  private readonly url: string;
  private readonly hosted: boolean;
  private readonly timeoutMs: number;
  private readonly pricer: Pricer;

  constructor(private readonly o: OpenAIOptions) {
    this.model = o.model;
    this.baseUrl = (o.baseUrl ?? baseUrlFor('openai', undefined, process.env)).replace(/\/+$/, '');
    this.url = `${this.baseUrl}/chat/completions`;
    this.hosted = isOpenAIHosted(this.baseUrl);
    this.timeoutMs = o.timeoutMs ?? 120_000;
    this.prices = o.prices ?? new PriceTable();
    this.pricer = new Pricer(this.prices, o.warn);
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const body = openaiBody(req, {
      model: this.model,
      maxTokensField: this.hosted ? 'max_completion_tokens' : 'max_tokens',
      stream: this.o.stream ?? true,
      ...(this.o.maxTokens !== undefined ? { maxTokens: this.o.maxTokens } : {}),
    });
    const fallbackId = fallbackCallId(req.turn);
    const parsed = await withRetry(
      () => withAttemptTimeout(signal, this.timeoutMs, (s, activity) => this.attempt(body, fallbackId, s, attemptWire(activity, this.o.fetch))),
      signal,
      { provider: `OpenAI-compatible server (${this.url})`, hint: (status) => this.hint(status) },
      this.o.retry,
    );
    return this.pricer.reply(parsed, this.model);
  }

  /**
   * One request with a client of its own: no SDK retries, this attempt's fetch and timeout.
   * Without a key (a local server) no Authorization header is sent; the SDK never falls
   * back to the environment's OPENAI_API_KEY or OPENAI_ADMIN_KEY here (the factory chose).
   */
  private async attempt(body: OpenAIBody, fallbackId: (i: number) => string, signal: AbortSignal, wire: AttemptWire): Promise<ParsedReply> {
    const { OpenAI } = loadClients();
    const client = new OpenAI({
      apiKey: this.o.apiKey || 'none',
      adminAPIKey: null,
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: this.timeoutMs,
      fetch: wire.fetch,
      ...(this.o.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    });
    const failed = (e: unknown): unknown => requestError(e, OpenAI, wire, { url: this.url, timeoutMs: this.timeoutMs });
    if (!body.stream) {
      const res = await client.chat.completions
        .create({ ...body, stream: false }, { signal })
        .asResponse()
        .catch((e: unknown) => Promise.reject(failed(e)));
      return parseOpenAICompletion((await readJson(res, signal)) as OpenAIWholeCompletion, fallbackId);
    }
    const { data: chunks, response } = await client.chat.completions
      .create({ ...body, stream: true }, { signal })
      .withResponse()
      .catch((e: unknown) => Promise.reject(failed(e)));
    if (!isEventStream(response)) return parseOpenAICompletion((await readJson(response, signal)) as OpenAIWholeCompletion, fallbackId);
    const stream = new OpenAIStream(fallbackId);
    for await (const chunk of sdkEvents(chunks, OpenAI, openaiStreamError)) stream.onChunk(chunk);
    if (!stream.finished) throw new TransientError('the reply stream ended before its last chunk');
    return stream.result();
  }

  private hint(status: number): string | undefined {
    if (status === 401)
      return this.hosted
        ? 'Check your API key: set OPENAI_API_KEY, or run "Durable Triage: Set API Key" in the editor.'
        : 'Check your API key (OPENAI_API_KEY) for this server.';
    if (status === 404) return 'Check the model name and OPENAI_BASE_URL (it should end in /v1 for most servers).';
    return undefined;
  }
}
