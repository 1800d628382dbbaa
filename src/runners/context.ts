/** What every runner is given: the workspace root, the files to run (workspace-relative; all when absent), a time limit, and the run's signal. */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface RunContext {
  root: string;
  files?: string[];
  signal?: AbortSignal;
  timeoutMs: number;
  /** Added to the runner's environment: the tests' environment in a cause's worktree (src/deps/prepare.ts). */
  env?: Readonly<Record<string, string>>;
}

/** A private temp folder for a runner's report file, removed after `body`. Never inside the workspace (the ledger's files stay as the agent wrote them). */
export async function withReportDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-report-'));
  try {
    return await body(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
