/**
 * Finding a patch's lines in a file, ever more loosely, in the order OpenAI's own apply_patch
 * tries (its models are trained on what that accepts): exactly, then ignoring trailing
 * whitespace, then ignoring leading and trailing whitespace, then also reading typographic
 * punctuation as ASCII (curly quotes as straight ones, en/em dashes and the minus sign as "-",
 * non-breaking and other odd spaces as a space). The result names the pass that matched, so the
 * tool can say when it was not exact.
 */

/** How a sequence matched: the first pass that found it. */
export type Fit = 'exact' | 'trailing-whitespace' | 'whitespace' | 'punctuation';

/** The words a tool result uses for a loose fit. */
export const FIT_WORDS: Record<Exclude<Fit, 'exact'>, string> = {
  'trailing-whitespace': 'ignoring trailing whitespace',
  whitespace: 'ignoring leading and trailing whitespace',
  punctuation: 'ignoring whitespace and reading typographic quotes, dashes and spaces as ASCII',
};

const DASHES = /[\u2010-\u2015\u2212]/g;
const SINGLE_QUOTES = /[\u2018-\u201B]/g;
const DOUBLE_QUOTES = /[\u201C-\u201F]/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/** `s` trimmed, its typographic punctuation read as ASCII. */
export function asciiPunctuation(s: string): string {
  return s.trim().replace(DASHES, '-').replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(SPACES, ' ');
}

const PASSES: [Fit, (s: string) => string][] = [
  ['exact', (s) => s],
  ['trailing-whitespace', (s) => s.trimEnd()],
  ['whitespace', (s) => s.trim()],
  ['punctuation', asciiPunctuation],
];

/**
 * Where `seq` first occurs in `lines` at or after `from` (only at the very end when `eof`), and
 * by which pass; undefined when no pass finds it. An empty `seq` is found at `from`.
 */
export function seekLines(lines: readonly string[], seq: readonly string[], from: number, eof: boolean): { at: number; fit: Fit } | undefined {
  if (seq.length === 0) return { at: from, fit: 'exact' };
  if (seq.length > lines.length) return undefined;
  const start = eof ? lines.length - seq.length : from;
  if (start < from) return undefined;
  for (const [fit, norm] of PASSES) {
    const want = seq.map(norm);
    for (let i = start; i + seq.length <= lines.length; i++) if (want.every((w, j) => norm(lines[i + j]) === w)) return { at: i, fit };
  }
  return undefined;
}
