/**
 * Words for a person: a run's phase, money and token counts. Shared by the transcript, the CLI
 * and the editor, so all of them say the same thing.
 */

/** The phase in words; `active`: the run is running now (else it is stopped there). */
export function phaseWords(phase: string, active = false): string {
  switch (phase) {
    case 'done':
      return 'finished';
    case 'paused':
      return 'waiting for you';
    case 'model':
      return active ? 'waiting for the model' : 'stopped before its next model call';
    case 'tools':
      return active ? 'running tools' : 'stopped while running tools';
    default:
      return phase;
  }
}

/** Dollars: cents, or tenths of a cent below one cent. */
export function dollars(d: number): string {
  if (!Number.isFinite(d) || d <= 0) return '$0.00';
  return d < 0.01 ? `$${d.toFixed(4)}` : `$${d.toFixed(2)}`;
}

/** 12345 -> "12.3k" */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
