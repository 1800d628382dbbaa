/**
 * `triage run`: the task's latest run in the state directory is resumed (unfinished) or shown
 * (done: its saved answer, no model call); a new run starts when there is none, or with --new.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags } from '../store-flag';
import { MODEL_FLAGS, modelFromFlags } from '../model-flag';
import { interruptSignal } from '../interrupt';
import { BadInputError } from '../../core/errors';
import { isErrno } from '../../disk/errno';
import { TOOL_ACTED, type CrashHook } from '../../store/crash-points';
import { runTriage, type TriageOutcome } from '../../triage/job';
import { TerminalApprover, type ApproveMode } from '../terminal-approver';
import { EXIT } from '../exitcodes';
import { describeEvent } from '../progress';
import { LIMIT_FLAGS, limitsFromFlags } from '../limit-flags';
import { githubApiUrl } from '../../tracker/github/spec';
import { SENTRY_FLAGS, sentryFromFlags } from '../sentry-flags';
import { parseDepsChoice } from '../../deps/options';

/** --record never replaces a file (or link) that is there already, unless --force says so. */
async function refuseExisting(file: string): Promise<void> {
  const there = await fs.lstat(file).then(
    () => true,
    (e: unknown) => (isErrno(e, 'ENOENT') ? false : Promise.reject(e)),
  );
  if (there) {
    throw new BadInputError(
      `--record ${file} already exists, and recording would replace it (or continue it, when it is this run's own recording and the run is resumed). ` +
        'Add --force to allow that, or name a file that does not exist yet. Nothing was started.',
    );
  }
}

export async function cmdRun(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    task: { type: 'string' },
    ...STORE_FLAGS,
    workspace: { type: 'string' },
    crashes: { type: 'string' },
    ...SENTRY_FLAGS,
    'approve-tools': { type: 'string' },
    approve: { type: 'string', default: 'ask' },
    'die-after': { type: 'string' },
    keys: { type: 'string', default: 'on' },
    ...MODEL_FLAGS,
    tracker: { type: 'string' },
    mcp: { type: 'string' },
    'test-command': { type: 'string' },
    record: { type: 'string' },
    ...LIMIT_FLAGS,
    force: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    new: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    'lease-ms': { type: 'string' },
    'pull-requests': { type: 'boolean', default: false },
    base: { type: 'string' },
    remote: { type: 'string' },
    draft: { type: 'string' },
    deps: { type: 'string' },
    'deps-scripts': { type: 'string' },
    'deps-network': { type: 'string' },
  });
  if (!v.task) throw new BadInputError('triage run needs --task NAME (see "triage tasks").');
  const approve = v.approve as string;
  if (!['ask', 'yes', 'no'].includes(approve)) throw new BadInputError(`--approve must be ask, yes or no, not "${approve}".`);
  if (v.keys !== 'on' && v.keys !== 'off') throw new BadInputError(`--keys must be on or off, not "${v.keys}".`);
  const limits = limitsFromFlags(v);
  const model = modelFromFlags(v);
  const dieAfter = v['die-after'] as string | undefined;
  const crash: CrashHook | undefined = dieAfter
    ? (point, detail) => {
        if (point === TOOL_ACTED && detail?.tool === dieAfter) process.kill(process.pid, 'SIGKILL');
      }
    : undefined;

  const interrupt = interruptSignal();
  const log = (s: string): void => {
    if (!v.quiet) process.stderr.write(s + '\n');
  };
  if (v.draft !== undefined && v.draft !== 'on' && v.draft !== 'off') throw new BadInputError(`--draft must be on or off, not "${v.draft as string}".`);
  if (!v['pull-requests'] && (v.base !== undefined || v.remote !== undefined || v.draft !== undefined))
    throw new BadInputError('--base, --remote and --draft go with --pull-requests.');
  const depsScripts = v['deps-scripts'] as string | undefined;
  if (depsScripts !== undefined && depsScripts !== 'on' && depsScripts !== 'off')
    throw new BadInputError(`--deps-scripts must be on or off, not "${depsScripts}".`);
  if (!v['pull-requests'] && (v.deps !== undefined || depsScripts !== undefined || v['deps-network'] !== undefined))
    throw new BadInputError("--deps, --deps-scripts and --deps-network go with --pull-requests (they set up each cause's worktree).");
  const deps = parseDepsChoice({
    ...(v.deps !== undefined ? { mode: v.deps as string } : {}),
    scripts: depsScripts === 'on',
    ...(v['deps-network'] !== undefined ? { network: v['deps-network'] as string } : {}),
  });
  const leaseMs = v['lease-ms'] === undefined ? undefined : Number(v['lease-ms']);
  if (leaseMs !== undefined && !(Number.isInteger(leaseMs) && leaseMs >= 1000))
    throw new BadInputError(`--lease-ms must be a whole number of milliseconds, at least 1000.`);
  const record = v.record === undefined ? undefined : path.resolve(v.record as string);
  if (record !== undefined && v.force !== true) await refuseExisting(record);
  const runStore = storeFromFlags(v, 'triage run');
  let outcome: TriageOutcome;
  try {
    outcome = await runTriage({
      runStore,
      ...(leaseMs ? { store: { staleMs: leaseMs } } : {}),
      task: v.task as string,
      ...(v.workspace ? { workspace: path.resolve(v.workspace as string) } : {}),
      ...(v.crashes ? { crashes: v.crashes as string } : {}),
      sentry: sentryFromFlags(v),
      ...(v['approve-tools'] !== undefined
        ? {
            approvalTools: (v['approve-tools'] as string)
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          }
        : {}),
      ...(model ? { model } : {}),
      approver: new TerminalApprover(approve as ApproveMode),
      keys: v.keys === 'on',
      fresh: v.new === true,
      ...(v.tracker ? { trackerUrl: v.tracker as string } : {}),
      ...(v.mcp !== undefined ? { mcpConfig: path.resolve(v.mcp as string) } : {}),
      ...(process.env.GITHUB_TOKEN ? { githubToken: process.env.GITHUB_TOKEN } : {}),
      ...(process.env.GITHUB_API_URL ? { githubApiUrl: githubApiUrl() } : {}),
      ...(v['test-command'] ? { testCommand: v['test-command'] as string } : {}),
      limits,
      signal: interrupt.signal,
      ...(crash ? { crash } : {}),
      onRunOpened: (runId, st) =>
        log(`run ${runId} (${st.task}), phase ${st.phase}, turn ${st.turns}, restarts ${st.restarts}, workspace ${st.config.workspace}`),
      onEvent: (e) => {
        const line = describeEvent(e);
        if (line) log(line);
      },
      ...(record ? { recordTo: record } : {}),
      ...(v['pull-requests']
        ? {
            pullRequests: {
              ...(v.base !== undefined ? { base: v.base as string } : {}),
              ...(v.remote !== undefined ? { remote: v.remote as string } : {}),
              ...(v.draft !== undefined ? { draft: v.draft === 'on' } : {}),
              deps,
            },
          }
        : {}),
    });
  } finally {
    interrupt.release();
    await runStore.close();
  }
  const r = outcome.result;
  const passed = outcome.checks?.filter((c) => c.passed).length ?? 0;
  const total = outcome.checks?.length ?? 0;
  if (!v.json) {
    process.stdout.write(`run ${outcome.runId}: ${r.phase} after ${r.turns} turns, ${r.restarts} restarts, $${r.usage.dollars.toFixed(4)}\n`);
    if (outcome.finishedBefore) process.stdout.write('(this run had already finished: its saved result, no model call; --new starts another run)\n');
    if (r.phase === 'paused')
      process.stdout.write(
        `paused for a person: ${(r.pending ?? []).map((p) => `${p.kind} ${p.tool} (${p.callId})`).join(', ')}; run the same command again to answer.\n`,
      );
    for (const c of outcome.checks ?? []) process.stdout.write(`  ${c.passed ? 'pass' : 'FAIL'}  ${c.name}${c.passed ? '' : `: ${c.detail}`}\n`);
    if (outcome.checks) process.stdout.write(`checks: ${passed}/${total} passed\n`);
    for (const i of outcome.issues) process.stdout.write(`  issue #${i.number} [${i.cause}] ${i.title}\n`);
    if (r.answer) process.stdout.write(`\n${r.answer}\n`);
  } else {
    process.stdout.write(
      JSON.stringify({
        runId: outcome.runId,
        phase: r.phase,
        turns: r.turns,
        restarts: r.restarts,
        usage: r.usage,
        modelCalls: outcome.modelCalls,
        finishedBefore: outcome.finishedBefore,
        checks: { passed, total, failed: (outcome.checks ?? []).filter((c) => !c.passed).map((c) => c.name) },
        issues: outcome.issues.map((i) => ({ number: i.number, title: i.title, cause: i.cause, key: i.key })),
        workspace: outcome.workspace,
        pending: r.pending ?? [],
      }) + '\n',
    );
  }
  if (r.phase === 'paused') return EXIT.paused;
  return EXIT.done;
}
