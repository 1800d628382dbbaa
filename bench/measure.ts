/** Timing and summary statistics for the benchmarks. */
import { performance } from 'node:perf_hooks';

/** Milliseconds taken by `f`. */
export async function timed(f: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** The value below which a share `q` (0..1) of the samples fall (nearest rank). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function p99(xs: readonly number[]): number {
  return quantile(xs, 0.99);
}

export function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Runs the functions of one round in an order that rotates with `round`, so no contender always goes first. */
export async function rotated(round: number, fns: Array<() => Promise<void>>): Promise<void> {
  for (let i = 0; i < fns.length; i++) await fns[(round + i) % fns.length]();
}
