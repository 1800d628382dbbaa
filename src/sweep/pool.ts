/** How many independent sweep scenarios run at once: enough to fill the waits (fsync, a child's start, HTTP, the database) on two cores. */
export const SCENARIOS_AT_ONCE = 3;

/** Runs `tasks` at most `k` at a time (the sweeps' independent scenarios); their results in the tasks' order. */
export async function inPool<T>(tasks: (() => Promise<T>)[], k: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(k, tasks.length)) }, worker));
  return out;
}
