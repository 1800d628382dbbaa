/**
 * Ctrl-C and SIGTERM as a cancellation: the signal a long command (a run, a worker) hands to
 * the core, which saves where it stopped. `release()` stops listening.
 */
export function interruptSignal(): { signal: AbortSignal; release(): void } {
  const ac = new AbortController();
  const onSig = (): void => ac.abort();
  process.once('SIGINT', onSig);
  process.once('SIGTERM', onSig);
  return {
    signal: ac.signal,
    release() {
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
    },
  };
}
