/**
 * OpenAI-compatible chat completions (POST {baseUrl}/chat/completions) with tools,
 * streamed: OpenAI itself, and local servers such as Ollama or vLLM (which may need no key).
 * One complete() is one paid reply however many attempts it took (see retry.ts).
 */
import type { ModelReply } from '../durable/state';
import type { ModelProvider, ModelRequest } from './provider';
import { PriceTable } from './prices';
import { postJson, readJson, readSse, isEventStream, withAttemptTimeout, TransientError, type FetchFn } from './http';
import { withRetry, type RetryOptions } from './retry';
import { openaiBody, type OpenAIBody } from './openai-request';
import { OpenAIStream, parseOpenAICompletion } from './openai-stream';
import { Pricer, fallbackCallId, type ParsedReply } from './reply';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIOptions {
  /** Sent as a Bearer token; omit for a local server that needs none. */
  apiKey?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseUrl?: string;
  model: string;
  /** Reply token limit; unset sends none (the server's default). OpenAI gets max_completion_tokens, others max_tokens. */
  maxTokens?: number;
  prices?: PriceTable;
  retry?: RetryOptions;
  /** An attempt that receives nothing for this long is retried (default 120 s). */
  timeoutMs?: number;
  fetch?: FetchFn;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Told about replies counted as $0 (unpriced model, or a server that reported no usage). */
  warn?: (message: string) => void;
}

/** True when the base URL is OpenAI's own API (which needs a key). */
export function isOpenAIHosted(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export class OpenAIProvider implements ModelProvider {
  readonly provider = 'openai';
  readonly model: string;
  private readonly url: string;
  private readonly hosted: boolean;
  private readonly pricer: Pricer;

  constructor(private readonly o: OpenAIOptions) {
    this.model = o.model;
    const base = o.baseUrl ?? process.env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
    this.url = `${base.replace(/\/+$/, '')}/chat/completions`;
    this.hosted = isOpenAIHosted(base);
    this.pricer = new Pricer(o.prices, o.warn);
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
      () => withAttemptTimeout(signal, this.o.timeoutMs ?? 120_000, (s, activity) => this.attempt(body, fallbackId, s, activity)),
      signal,
      { provider: `OpenAI-compatible server (${this.url})`, hint: (status) => this.hint(status) },
      this.o.retry,
    );
    return this.pricer.reply(parsed, this.model);
  }

  private async attempt(body: OpenAIBody, fallbackId: (i: number) => string, signal: AbortSignal, activity: () => void): Promise<ParsedReply> {
    const headers: Record<string, string> = { accept: body.stream ? 'text/event-stream' : 'application/json' };
    if (this.o.apiKey) headers.authorization = `Bearer ${this.o.apiKey}`;
    const res = await postJson(this.o.fetch ?? fetch, this.url, headers, body, signal);
    activity();
    if (!isEventStream(res) || !res.body) return parseOpenAICompletion((await readJson(res, signal)) as Parameters<typeof parseOpenAICompletion>[0], fallbackId);
    const stream = new OpenAIStream(fallbackId);
    for await (const ev of readSse(res.body, signal, activity)) {
      stream.onEvent(ev);
      if (stream.done) break;
    }
    if (!stream.done && !stream.finished) throw new TransientError('the reply stream ended before its last chunk');
    return stream.result();
  }

  private hint(status: number): string | undefined {
    if (status === 401) return this.hosted ? 'Check your API key: set OPENAI_API_KEY, or run "Durable Triage: Set API Key" in the editor.' : 'Check your API key (OPENAI_API_KEY) for this server.';
    if (status === 404) return 'Check the model name and OPENAI_BASE_URL (it should end in /v1 for most servers).';
    return undefined;
  }
}
