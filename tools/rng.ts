/**
 * The one small seeded random generator (mulberry32): the same seed gives the same numbers on
 * every run, so authored recordings, synthetic benchmark runs and a test's kill times can be
 * replayed. Not for anything secret. A string seed is hashed (FNV-1a) to the 32-bit state.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** FNV-1a of the string's UTF-16 code units: a 32-bit seed. */
function seedOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: string | number) {
    this.state = typeof seed === 'string' ? seedOf(seed) : seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One of `xs`. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** `n` characters of [0-9A-Za-z]. */
  base62(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += BASE62[Math.floor(this.next() * 62)];
    return s;
  }
}
