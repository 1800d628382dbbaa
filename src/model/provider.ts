/**
 * One interface for every model: the recorded model, Anthropic, OpenAI-compatible
 * servers and (in the extension) VS Code's Language Model API.
 */
import type { Message, ModelReply, ContextSummary } from '../durable/state';
import type { JsonSchema } from '../agent/tool';
import type { PriceTable } from './prices';

export interface ToolSpec {
  name: string;
  description: string;
  schema: JsonSchema;
}

export interface ModelRequest {
  system: string;
  /** The messages to send (after the context policy: the summary replaces older ones). */
  messages: Message[];
  summary?: ContextSummary;
  tools: ToolSpec[];
  /** Zero-based index of this model call within the run's life (== turns so far). */
  turn: number;
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
