/**
 * Dollars per million tokens, per model. A setting (or --prices FILE in the CLI) can
 * extend or override the table; unknown models cost $0 and are reported as unpriced.
 */
import { z } from 'zod';
import type { Usage } from '../core/conversation';

const DollarsPerMillion = z.number().nonnegative();

/** A model's price, dollars per million tokens (the price table setting's value has this shape). */
export const PriceSchema = z.object({
  /** Dollars per million input tokens. */
  input: DollarsPerMillion,
  /** Dollars per million output tokens. */
  output: DollarsPerMillion,
  /** Dollars per million cache-read input tokens (defaults to input). */
  cacheRead: DollarsPerMillion.optional(),
  /** Dollars per million cache-write input tokens (defaults to input). */
  cacheWrite: DollarsPerMillion.optional(),
});
export type Price = z.infer<typeof PriceSchema>;

export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
};

export class PriceTable {
  private readonly prices: Map<string, Price>;
  constructor(extra: Record<string, Price> = {}) {
    this.prices = new Map(Object.entries({ ...DEFAULT_PRICES, ...extra }));
  }
  /** The price of a model, matching exact names first, then the longest known prefix (dated snapshots). */
  find(model: string): Price | undefined {
    const exact = this.prices.get(model);
    if (exact) return exact;
    let best: [string, Price] | undefined;
    for (const [name, p] of this.prices) if (model.startsWith(name) && (!best || name.length > best[0].length)) best = [name, p];
    return best?.[1];
  }
  /** Dollars for one reply's tokens. */
  dollars(model: string, u: Omit<Usage, 'dollars'>): number {
    const p = this.find(model);
    if (!p) return 0;
    const m = 1_000_000;
    return (
      (u.inputTokens * p.input) / m +
      (u.outputTokens * p.output) / m +
      ((u.cacheReadTokens ?? 0) * (p.cacheRead ?? p.input)) / m +
      ((u.cacheWriteTokens ?? 0) * (p.cacheWrite ?? p.input)) / m
    );
  }
}
