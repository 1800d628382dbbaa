/** The benchmarks' figures: a table for people, one JSON object per figure (per line) with --json. */

export interface Figure {
  /** Which benchmark: "save", "growth", "resume", "sweep", "extension". */
  bench: string;
  /** What was measured, e.g. "median per save". */
  name: string;
  value: number | null;
  unit: string;
  /** The target, as text (e.g. "<= 1.2"), for the figures that have one. */
  target?: string;
  /** Whether the value meets the target; absent without a target. */
  pass?: boolean;
  /** Context: what it was measured against, why it is missing. */
  note?: string;
}

export class Report {
  readonly figures: Figure[] = [];

  add(f: Figure): Figure {
    this.figures.push(f);
    return f;
  }

  /** Adds a figure with a target: `value <= max` passes. */
  atMost(f: Omit<Figure, 'target' | 'pass'>, max: number, targetText = `<= ${max}`): Figure {
    return this.add({ ...f, target: targetText, pass: f.value !== null && f.value <= max });
  }

  json(): string {
    return this.figures.map((f) => JSON.stringify(f)).join('\n') + '\n';
  }

  table(): string {
    const rows = this.figures.map((f) => [
      f.bench,
      f.name,
      f.value === null ? 'n/a' : `${format(f.value)} ${f.unit}`.trim(),
      f.target ?? '',
      f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS',
      f.note ?? '',
    ]);
    const head = ['bench', 'figure', 'value', 'target', '', 'note'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]): string =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
  }
}

export function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (a >= 100) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toFixed(3);
}
