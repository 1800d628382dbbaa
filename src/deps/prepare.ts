/**
 * A cause's worktree made ready to run the repository's tests, before the first tool acts in it
 * (src/git/cause-branches.ts calls this once per worktree): the JavaScript install from the lock
 * file (node-project.ts, install-command.ts), the checkout's node_modules linked (reuse.ts) or
 * copied as hard links (copy.ts), the
 * user's Python virtual environment (python-env.ts), Go's shared module cache with downloads off
 * (go-env.ts). What it did is kept in a readiness record beside the worktree (never inside it),
 * so a resumed run neither installs again nor forgets the tests' environment; a worktree made
 * anew is made ready anew. A failure is a typed DependencyError (errors.ts): the run stops where
 * it is. The user's checkout is only read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { onPath } from '../runners/which';
import { ToolMissingError } from './errors';
import { checkGoModules, goEnv, goModuleDir } from './go-env';
import { installCommand } from './install-command';
import { fixFor, installFailure } from './install-failure';
import { detectNodeProject, type NodeProject } from './node-project';
import type { DepsOptions } from './options';
import { isPythonProject, pythonEnv } from './python-env';
import { copyNodeModules } from './copy';
import { linkNodeModules, reuseRefusal } from './reuse';
import { runStep } from './run-step';
import { clearStepOwner, recordStepOwner, stopOrphanedStep } from './step-owner';

export const INSTALL_TIMEOUT_MS = 15 * 60_000;

export const ECOSYSTEMS = ['node', 'python', 'go'] as const;

export const WorktreeReadiness = z.strictObject({
  version: z.literal(1),
  /** What was done, in order, and how long each took. */
  steps: z.array(z.strictObject({ ecosystem: z.enum(ECOSYSTEMS), what: z.string(), ms: z.number() })),
  /** Added to the tests' environment in this worktree. */
  env: z.record(z.string(), z.string()),
  /** Pathspecs (git's glob magic) of what the setup made, never committed: node_modules and the package managers' state. */
  exclude: z.array(z.string()),
});
export type WorktreeReadiness = z.infer<typeof WorktreeReadiness>;

/** What an install makes in a worktree that must never go into the cause's commit. */
export const NODE_EXCLUDES = ['**/node_modules', '**/node_modules/**', '**/.yarn/install-state.gz', '**/.pnp.cjs', '**/.pnp.loader.mjs'];

export interface PrepareSpec {
  /** The user's checkout (the repository's top): only read. */
  checkoutTop: string;
  /** The cause's worktree (its top). */
  worktreeTop: string;
  /** The workspace's folder in the repository ("" or "a/b/"). */
  prefix: string;
  options: DepsOptions;
  /** The readiness record's file (beside the worktree). */
  record: string;
  /** The worktree was just made: any record is an earlier worktree's. */
  made: boolean;
  /** Where the install's output is written. */
  log: string;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Told what is being done before each step that can take long, and when the worktree is ready. */
  progress?: (text: string) => void;
}

export async function prepareWorktree(s: PrepareSpec): Promise<WorktreeReadiness> {
  if (!s.made) {
    const saved = readRecord(s.record);
    if (saved) return saved;
  }
  const base = s.env ?? process.env;
  const ready: WorktreeReadiness = { version: 1, steps: [], env: {}, exclude: [] };
  const wsRel = s.prefix.replace(/\/+$/, '');
  const worktreeWs = path.join(s.worktreeTop, wsRel);
  const checkoutWs = path.join(s.checkoutTop, wsRel);
  if (s.options.mode === 'off') {
    await writeRecord(s.record, ready);
    return ready;
  }
  const p = detectNodeProject(s.worktreeTop, wsRel);
  if (p) {
    ready.steps.push(await nodeStep(p, s, base));
    ready.exclude.push(...NODE_EXCLUDES);
  }
  if (isPythonProject(worktreeWs)) {
    const t0 = performance.now();
    const py = pythonEnv(s.checkoutTop, checkoutWs, worktreeWs, base);
    Object.assign(ready.env, py.env);
    ready.steps.push({ ecosystem: 'python', what: py.venv ? `the virtual environment ${py.venv} (${py.because})` : py.because, ms: performance.now() - t0 });
  }
  const goDir = goModuleDir(s.worktreeTop, worktreeWs);
  if (goDir) {
    const t0 = performance.now();
    const env = goEnv(goDir, s.options, base);
    s.progress?.('checking that the module cache holds every module the tests need (go list -deps -test ./...)');
    const note = await checkGoModules(goDir, env, base, s.signal);
    Object.assign(ready.env, env);
    const how = s.options.network === 'allowed' ? 'downloads allowed' : 'the shared module cache, GOPROXY=off, -mod=readonly';
    ready.steps.push({ ecosystem: 'go', what: `${how}${note ? ` (go list: ${note})` : ''}`, ms: performance.now() - t0 });
  }
  await writeRecord(s.record, ready);
  if (ready.steps.length > 0) s.progress?.(`ready in ${seconds(ready.steps.reduce((a, st) => a + st.ms, 0))}`);
  return ready;
}

function folders(n: number): string {
  return `${n} folder${n === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function nodeStep(p: NodeProject, s: PrepareSpec, base: NodeJS.ProcessEnv): Promise<WorktreeReadiness['steps'][number]> {
  const t0 = performance.now();
  const checkoutDir = path.join(s.checkoutTop, p.installDir);
  const worktreeDir = path.join(s.worktreeTop, p.installDir);
  let fallback = '';
  if (s.options.mode === 'reuse' || s.options.mode === 'copy') {
    const refusal = reuseRefusal(checkoutDir, worktreeDir, path.posix.basename(p.lockfile), s.checkoutTop);
    if (!refusal && s.options.mode === 'reuse') {
      const linked = linkNodeModules(checkoutDir, worktreeDir);
      return { ecosystem: 'node', what: `your checkout's node_modules linked, read-only (${folders(linked.length)})`, ms: performance.now() - t0 };
    }
    if (!refusal) {
      const { copied, linked } = await copyNodeModules(checkoutDir, worktreeDir);
      const how = linked ? 'hard links: the files shared, the folders its own' : 'copied: another file system, no hard links';
      return { ecosystem: 'node', what: `your checkout's node_modules copied (${folders(copied.length)}, ${how})`, ms: performance.now() - t0 };
    }
    fallback = ` (not ${s.options.mode === 'reuse' ? 'reused' : 'copied'}: ${refusal})`;
  }
  const corepack = base.DURABLE_TRIAGE_COREPACK || onPath('corepack', base);
  const cmd = installCommand(p, s.worktreeTop, s.options, { ...(corepack ? { corepack } : {}), onPath: (c) => onPath(c, base), node: process.execPath });
  if (!path.isAbsolute(cmd.command) && !onPath(cmd.command, base))
    throw new ToolMissingError(cmd.needs, `the repository installs with ${p.manager} (${p.because})`, fixFor(cmd.needs, p.manager));
  await fs.promises.mkdir(path.dirname(s.log), { recursive: true });
  const owner = `${s.record}.pid`;
  const orphan = await stopOrphanedStep(owner);
  if (orphan !== undefined) s.progress?.(`stopped the install an earlier, killed life left running (pid ${orphan})`);
  s.progress?.(`${cmd.display}${fallback} (output in ${s.log})`);
  const r = await runStep({
    command: cmd.command,
    args: cmd.args,
    cwd: cmd.cwd,
    env: { ...base, ...cmd.env, ...(cmd.command === process.execPath ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
    timeoutMs: INSTALL_TIMEOUT_MS,
    log: s.log,
    onSpawn: (pid) => recordStepOwner(owner, pid),
    ...(s.signal ? { signal: s.signal } : {}),
  }).finally(() => clearStepOwner(owner));
  if (r.exitCode !== 0 || r.timedOut)
    throw installFailure(
      p,
      cmd,
      r.timedOut ? -1 : r.exitCode,
      r.timedOut ? `${r.tail}\n(stopped after ${INSTALL_TIMEOUT_MS / 60_000} minutes)` : r.tail,
      s.log,
    );
  return { ecosystem: 'node', what: `${cmd.display} in ${p.installDir || '.'} (${p.because})${fallback}`, ms: r.ms };
}

function readRecord(file: string): WorktreeReadiness | undefined {
  try {
    const r = WorktreeReadiness.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return r.success ? r.data : undefined;
  } catch {
    return undefined; // none, or torn by a crash: made ready again
  }
}

async function writeRecord(file: string, r: WorktreeReadiness): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, `${JSON.stringify(r, null, 2)}\n`);
  await fs.promises.rename(tmp, file);
}
