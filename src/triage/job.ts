/**
 * Running a triage job: the one entry point the CLI and the extension share. It builds a run
 * from a catalog task (or finds the task's latest run again), wires the tracker, the tools,
 * the model and the approver into the durable loop, and judges the finished run. A run is
 * opened (locked and read) once. Finding, showing and repairing runs is run-admin.ts.
 */
import type { RipgrepOptions } from '../tools/search/find-ripgrep';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { OpenedRun, RunStore, StoreOptions } from '../store/run-store';
import type { RunHandle } from '../store/run-handle';
import { openStateFolder } from '../store/open-store';
import { type CrashHook } from '../store/crash-points';
import { newState, type RunResult, type RunState } from '../store/state';
import { BadInputError } from '../core/errors';
import { copyTreeDurable } from '../disk/durable-copy';
import { startRun, continueRun } from '../agent/runner';
import { newRunId } from '../agent/idempotency-key';
import { withDefaultLimits, type Limits } from '../agent/budget';
import type { LoopEvent } from '../agent/loop';
import type { Approver } from '../agent/approver';
import { toolSet, type Tool } from '../agent/tool';
import type { ModelProvider } from '../model/provider';
import type { Price } from '../model/prices';
import { PriceTable } from '../model/prices';
import { createProvider, defaultModelName, type ModelChoice } from '../model/factory';
import { baseUrlOption, chosenBaseUrl, savedBaseUrl, savedBaseUrlFrom } from '../model/provider-config';
import { loadRecording } from '../model/recorded-provider';
import { findTask, type TaskSpec } from './tasks/catalog';
import { CRASH_FOLDER_TASK, crashFolderTask } from './tasks/crash-folder';
import { parseTrackerSpec } from '../tracker/spec';
import { causeIssues, judge, type CheckResult } from './tasks/checks';
import { assertSampleCopy } from './tasks/sample-copy';
import { triageTools } from '../tools';
import { openTracker, type OpenTracker } from '../tracker/embedded';
import type { TrackerIssue } from '../tracker/store';
import { latestRun } from './run-admin';
import { worktreesDir } from './worktrees';
import { WindowContextPolicy } from '../model/context';
import { RecordingProvider } from '../model/recording-writer';
import type { RunEventStore } from '../store/run-event';
import { runEvents } from './run-events';
import { sentryIssuesOf, sentryLinkTools } from './sentry-links';
import { causePullRequest, causeBranchTools, checkPullRequestChoice, resolvePullRequestOptions, type PullRequestChoice } from './pull-requests';
import { isSentrySource, sentrySettings } from '../crashes/sentry/source';
import type { SentryFetch } from '../crashes/sentry/groups';
import { readMcpConfig, type McpConfig } from '../mcp/config';
import { McpSession } from '../mcp/session';
import { mcpQualifiedName } from '../mcp/tools';
import { mcpTrackerOf } from './mcp-tracker';
import { runMcpSession } from './run-mcp';

export interface TriageRunOptions {
  /** Which ripgrep search_files runs (tools/search/find-ripgrep.ts): the editor passes its bundled copy. */
  ripgrep?: RipgrepOptions;
  /** The state folder of the file store (when no runStore is given). */
  stateDir?: string;
  /** Where runs are kept: the file store of a state folder, or PostgreSQL (default: the file store of stateDir). */
  runStore?: RunStore;
  task: string;
  /** The folder the agent works in; default: a fresh copy of the task's sample under the store's workspaces folder (<stateDir>/workspaces/<runId>). */
  workspace?: string;
  /** A model choice (built here), or a ready provider (the extension's VS Code LM). Default: the recorded model. */
  model?: ModelChoice | ModelProvider;
  approver: Approver;
  /** Keyed tools send idempotency keys (default true). */
  keys?: boolean;
  /**
   * The tracker: "github:OWNER/REPO", a tracker service's URL, or "embedded" (the default: its
   * store in <stateDir>/tracker, shared by every run of the folder). Saved with the run.
   */
  trackerUrl?: string;
  /** The GitHub token (CLI: GITHUB_TOKEN; editor: the GitHub sign-in); never saved. */
  githubToken?: string;
  /** The GitHub API base (GITHUB_API_URL; GitHub Enterprise: https://HOST/api/v3); saved with the run. */
  githubApiUrl?: string;
  /** run_tests runs this command instead of the workspace's detected runner (`--test-command`); saved with the run. */
  testCommand?: string;
  /** Start a new run even if the task (in that workspace) already has one (`--new`); default: resume or show the latest. */
  fresh?: boolean;
  /** The run's limits; turns and dollars not given are DEFAULT_LIMITS (agent/budget.ts). */
  limits?: Limits;
  signal?: AbortSignal;
  crash?: CrashHook;
  onEvent?: (e: LoopEvent) => void;
  onRunOpened?: (runId: string, state: RunState) => void;
  prices?: Record<string, Price>;
  store?: StoreOptions;
  /** With task "crash-folder": the folder of crash reports, relative to the workspace. */
  crashes?: string;
  /**
   * With `crashes` "sentry:ORG/PROJECT": Sentry's address (default https://sentry.io), the issue
   * query (default is:unresolved) and limit (default 10), saved with the run; and the token
   * (CLI: SENTRY_AUTH_TOKEN; editor: its secret storage), never saved. Read only by a new run.
   */
  sentry?: SentryOptions;
  /** With task "crash-folder": causes of crash groups this new run leaves out (the editor's group pick). */
  leaveOut?: readonly string[];
  /** The tools whose calls wait for a person's yes ("*": all; default: what each tool declares, i.e. issue_file). */
  approvalTools?: readonly string[];
  /** Saves the live run's replies as a recording the recorded model can replay (`--record FILE`). */
  recordTo?: string;
  /** Wraps the provider once it is built. */
  wrapModel?: (m: ModelProvider, state: RunState) => ModelProvider;
  /**
   * The MCP servers' configuration file (`--mcp`): their tools join the run's, listed at its start
   * and saved with it. Its path is saved with the run (a resume reads it again; give it to use another).
   */
  mcpConfig?: string;
  /**
   * The MCP servers, already read (the editor's setting and allowed workspace file); instead of
   * `mcpConfig`, nothing of it saved but the tools. A new run with no server in it uses none; a
   * resumed run that used servers needs its servers in it (the saved file is not read then).
   */
  mcp?: McpConfig;
  /** Where the run's history is recorded; default: the event record beside the checkpoints (runEvents). */
  events?: RunEventStore;
  /** Told when an event could not be recorded (the run goes on without it). */
  onHistoryError?: (e: unknown) => void;
  /** One branch, commit and pull request per cause (`--pull-requests`); needs a GitHub tracker and a workspace in a git clone. Saved with the run. */
  pullRequests?: PullRequestChoice;
}

export interface SentryOptions {
  baseUrl?: string;
  query?: string;
  limit?: number | string;
  token?: string;
}

export interface TriageOutcome {
  runId: string;
  result: RunResult;
  /** The task's checks, judged when the run is done. */
  checks?: CheckResult[];
  /** The tracker's issues filed by this run. */
  issues: TrackerIssue[];
  /** Model calls made by this process (replies paid now). */
  modelCalls: number;
  /** The run was already done when this process opened it: its saved result, nothing ran. */
  finishedBefore: boolean;
  workspace: string;
}

function isProvider(m: ModelChoice | ModelProvider | undefined): m is ModelProvider {
  return !!m && typeof (m as ModelProvider).complete === 'function';
}

/**
 * The same command twice is crash, then resume: the task's latest run in this state folder
 * (and workspace, when given) is resumed if unfinished, and if done its saved answer and
 * results come back with no model call. A new run only when there is none, or on request (`fresh`).
 */
export async function runTriage(o: TriageRunOptions): Promise<TriageOutcome> {
  const ownFolder = o.task === CRASH_FOLDER_TASK;
  if (ownFolder && !o.workspace) throw new BadInputError(`The ${CRASH_FOLDER_TASK} task works in your own workspace: give it --workspace DIR.`);
  if (!ownFolder) findTask(o.task); // an unknown task is refused before the state folder is made or checked
  const trackerKind = parseTrackerSpec(o.trackerUrl).kind; // a bad tracker is refused before anything is made
  if (trackerKind === 'mcp' && o.mcpConfig === undefined)
    throw new BadInputError(
      `The tracker ${o.trackerUrl!.trim()} is a server of an MCP configuration: give --mcp FILE with that server and its "tracker" section.`,
    );
  if (o.pullRequests) checkPullRequestChoice(o.pullRequests, o.workspace, trackerKind); // so is a run with pull requests it cannot open
  const store = runStoreOf(o);
  if (store.kind === 'files') await fs.mkdir(store.where, { recursive: true, mode: 0o700 });
  const latest = await latestRun(store, { task: ownFolder ? CRASH_FOLDER_TASK : o.task, ...(o.workspace ? { workspace: o.workspace } : {}) });
  if (latest && !o.fresh) return resumeTriage({ ...o, runId: latest.runId });
  if (ownFolder && (isProvider(o.model) ? o.model.provider : (o.model?.provider ?? 'recorded')) === 'recorded')
    throw new BadInputError(
      "The recorded demo model only replays the bundled tasks; pick a real model (Anthropic, OpenAI-compatible or VS Code's language models) for your own crash reports.",
    );
  const sentry = ownFolder ? sentryFetchOf(o) : undefined;
  const task = ownFolder
    ? await crashFolderTask(path.resolve(o.workspace!), o.crashes, {
        ...(o.testCommand ? { testCommand: o.testCommand } : {}),
        ...(o.leaveOut ? { leaveOut: o.leaveOut } : {}),
        ...(sentry ? { sentry } : {}),
      })
    : findTask(o.task);

  const state = await newTriageState(o, task, store);
  if (o.mcp !== undefined) {
    if (Object.keys(o.mcp.servers).length === 0) return drive(o, task, { state });
    const mcp = await McpSession.start(o.mcp, { cwd: state.config.workspace });
    state.config.mcp = mcp.saved;
    return drive(o, task, { state }, mcp);
  }
  if (o.mcpConfig === undefined) return drive(o, task, { state });
  // The servers' tools are listed before the run is saved, and saved with it.
  const file = path.resolve(o.mcpConfig);
  const mcp = await McpSession.start(await readMcpConfig(file), { cwd: state.config.workspace });
  const spec = parseTrackerSpec(o.trackerUrl);
  if (spec.kind === 'mcp')
    try {
      mcpTrackerOf(spec.server, mcp, state.runId); // a tracker the file cannot serve is refused before the run is saved
    } catch (e) {
      await mcp.close();
      throw e;
    }
  state.config.mcp = mcp.saved;
  state.config.options = { ...state.config.options, mcpConfig: file };
  return drive(o, task, { state }, mcp);
}

/** With a Sentry crash source: its settings, checked (bad input is refused before anything is fetched or made), and the token. */
export function sentryFetchOf(o: Pick<TriageRunOptions, 'crashes' | 'sentry'>): SentryFetch | undefined {
  if (!isSentrySource(o.crashes)) return undefined;
  const s = o.sentry ?? {};
  return {
    ...sentrySettings({
      ...(s.baseUrl !== undefined ? { baseUrl: s.baseUrl } : {}),
      ...(s.query !== undefined ? { query: s.query } : {}),
      ...(s.limit !== undefined ? { limit: s.limit } : {}),
    }),
    token: s.token,
  };
}

/** A new run's first state: its workspace (the given folder, or a fresh copy of the task's sample), model and options. */
export async function newTriageState(
  o: Pick<TriageRunOptions, 'workspace' | 'model' | 'trackerUrl' | 'keys' | 'crashes' | 'githubApiUrl' | 'testCommand' | 'pullRequests' | 'sentry'>,
  task: TaskSpec,
  store: RunStore,
): Promise<RunState> {
  const ownFolder = task.name === CRASH_FOLDER_TASK;
  const tracker = parseTrackerSpec(o.trackerUrl);
  if (o.pullRequests) checkPullRequestChoice(o.pullRequests, o.workspace, tracker.kind); // before a copy is made
  const choice: ModelChoice | undefined = isProvider(o.model) ? undefined : o.model;
  // Checked before anything is copied or saved: a user:password@ in it would be saved with the run.
  chosenBaseUrl(choice);
  const runId = newRunId(task.name);
  let workspace: string;
  if (o.workspace) {
    workspace = path.resolve(o.workspace);
    const st = await fs.stat(workspace).catch(() => undefined);
    if (!st?.isDirectory()) throw new BadInputError(`Workspace ${workspace} is not a folder.`);
    if (!ownFolder) await assertSampleCopy(task, workspace);
  } else {
    // The copy goes into the state folder before the run is created: its folders are checked first.
    await store.checked?.();
    workspace = path.join(store.workspacesDir, runId);
    await copyTreeDurable(task.sample, workspace);
  }
  const providerName = isProvider(o.model) ? o.model.provider : (choice?.provider ?? 'recorded');
  // The name the model is called by (the provider's default when none was given), so a run says which model it used.
  const modelName = isProvider(o.model)
    ? o.model.model
    : choice?.model || (providerName === 'recorded' ? (await loadRecording(task.recording)).model : defaultModelName(providerName));
  const options: Record<string, string> = {};
  if (tracker.kind !== 'embedded') options.trackerUrl = o.trackerUrl!.trim();
  if (tracker.kind === 'github' && o.githubApiUrl) options.githubApiUrl = o.githubApiUrl;
  if (o.testCommand) options.testCommand = o.testCommand;
  Object.assign(options, baseUrlOption(choice));
  if (ownFolder && o.crashes) options.crashes = o.crashes;
  if (o.pullRequests) Object.assign(options, await resolvePullRequestOptions(o.pullRequests, workspace, tracker.kind));
  const sentry = ownFolder ? sentryFetchOf(o) : undefined;
  if (sentry) {
    // Where the groups came from, for the links back (the token is never saved).
    options.crashes = o.crashes!.trim();
    options.sentryUrl = sentry.baseUrl;
    options.sentryQuery = sentry.query;
    options.sentryLimit = String(sentry.limit);
  }
  return newState({
    runId,
    task: task.name,
    config: {
      workspace,
      provider: providerName,
      model: modelName,
      keys: o.keys ?? true,
      options,
      ...(task.crashGroups ? { crashGroups: task.crashGroups } : {}),
    },
    system: task.system,
    prompt: task.prompt,
  });
}

/** Resumes one run by ID, with the tracker, workspace and model it was started with (a done run: its saved result, no model call). */
export async function resumeTriage(o: Omit<TriageRunOptions, 'task' | 'workspace'> & { runId: string }): Promise<TriageOutcome> {
  return continueTriage(o, await runStoreOf(o).openRun(o.runId, storeOptions(o)));
}

/** Goes on with a run the caller opened (a worker's claim): with the tracker, workspace and model it was started with. */
export async function continueTriage(o: Omit<TriageRunOptions, 'task' | 'workspace'>, open: OpenedRun): Promise<TriageOutcome> {
  let task: TaskSpec;
  try {
    task = await taskOf(open.state, o.testCommand);
  } catch (e) {
    await open.handle.close();
    throw e;
  }
  return drive(o, task, { open });
}

/** A saved run's task: the catalog's, or its own crash folder with the groups saved at its start. */
async function taskOf(saved: RunState, testCommand: string | undefined): Promise<TaskSpec> {
  if (saved.task !== CRASH_FOLDER_TASK) return findTask(saved.task);
  const command = saved.config.options?.testCommand ?? testCommand;
  return crashFolderTask(saved.config.workspace, saved.config.options?.crashes, {
    ...(saved.config.crashGroups ? { saved: saved.config.crashGroups } : {}),
    ...(command ? { testCommand: command } : {}),
  });
}

/** The store the options name: the one given, or the file store of the state folder. */
function runStoreOf(o: Pick<TriageRunOptions, 'runStore' | 'stateDir'>): RunStore {
  if (o.runStore) return o.runStore;
  if (o.stateDir === undefined) throw new Error('a run needs a store: give runStore or stateDir');
  return openStateFolder(o.stateDir);
}

function storeOptions(o: Pick<TriageRunOptions, 'store' | 'crash'>): StoreOptions {
  return { ...o.store, ...(o.crash ? { crash: o.crash } : {}) };
}

async function drive(
  o: Omit<TriageRunOptions, 'task' | 'workspace'>,
  task: TaskSpec,
  which: { state: RunState } | { open: OpenedRun },
  started?: McpSession,
): Promise<TriageOutcome> {
  const store = runStoreOf(o);
  let mcp = started;
  let modelCalls = 0;
  let tracker: OpenTracker | undefined;
  let runState: RunState | undefined;
  let finishedBefore = false;
  const onEvent = (e: LoopEvent): void => {
    if (e.type === 'model-call') modelCalls++;
    o.onEvent?.(e);
  };
  const events = o.events ?? runEvents(store, o.store);
  const common = {
    runStore: store,
    events,
    ...(o.onHistoryError ? { onHistoryError: o.onHistoryError } : {}),
    ...(o.store ? { store: o.store } : {}),
    limits: withDefaultLimits(o.limits),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.crash ? { crash: o.crash } : {}),
    onEvent,
    opened: async (state: RunState, handle: RunHandle) => {
      runState = state;
      finishedBefore = state.phase === 'done';
      o.onRunOpened?.(state.runId, state);
      const spec = parseTrackerSpec(o.trackerUrl ?? state.config.options?.trackerUrl);
      if (spec.kind === 'mcp') {
        mcp ??= await runMcpSession(o.mcp ?? o.mcpConfig, state, handle);
        tracker = { client: mcpTrackerOf(spec.server, mcp, state.runId), close: async () => {} };
        return;
      }
      tracker = await openTracker(store, state, o.trackerUrl, {
        ...(o.githubToken ? { githubToken: o.githubToken } : {}),
        ...(o.githubApiUrl ? { githubApiUrl: o.githubApiUrl } : {}),
      });
    },
    parts: async (state: RunState, handle: RunHandle) => {
      const model = await buildModel(o, task, state);
      const causes = task.groups.map((g) => g.cause);
      const pullRequestOf = (st: RunState) => causePullRequest(st, { tracker: tracker!.client, worktreesDir: worktreesDir(store) });
      const tools = triageTools({
        tracker: tracker!.client,
        keys: state.config.keys,
        workspace: state.config.workspace,
        hidden: hiddenFromTools(store),
        causes,
        sentry: sentryIssuesOf(state),
        ...testCommandOf(state, o),
        ...(o.ripgrep ? { ripgrep: o.ripgrep } : {}),
      });
      mcp ??= await runMcpSession(o.mcp ?? o.mcpConfig, state, handle);
      return {
        model,
        tools: toolSet(
          withApprovals(
            causeBranchTools(tools, state, { tracker: tracker!.client, causes, worktreesDir: worktreesDir(store) })
              .concat(sentryLinkTools(state, { tracker: tracker!.client, token: o.sentry?.token, pullRequest: pullRequestOf(state) }))
              .concat(modelMcpTools(mcp, parseTrackerSpec(o.trackerUrl ?? state.config.options?.trackerUrl))),
            o.approvalTools,
          ),
        ),
        approver: o.approver,
        contextPolicy: new WindowContextPolicy(),
      };
    },
  };
  try {
    const result = 'state' in which ? await startRun({ ...common, state: which.state }) : await continueRun({ ...common, open: which.open });
    const state = runState!;
    const issues = tracker ? await tracker.client.search({ runId: state.runId }) : [];
    const outcome: TriageOutcome = { runId: state.runId, result, issues, modelCalls, finishedBefore, workspace: state.config.workspace };
    if (result.phase === 'done' && task.checks.length > 0) {
      // A cause already filed before this run (found by the refile check, not filed again) has that issue.
      const existing = tracker ? (await tracker.client.search({ workspace: state.config.workspace }).catch(() => [])).filter((i) => i.state !== 'closed') : [];
      outcome.checks = await judge(task, { state, workspace: state.config.workspace, issues: causeIssues(issues, existing) });
      if (!finishedBefore) {
        const failed = outcome.checks.filter((c) => !c.passed).map((c) => ({ name: c.name, detail: c.detail }));
        await events
          .append(state.runId, [
            { type: 'checks', at: new Date().toISOString(), passed: outcome.checks.length - failed.length, total: outcome.checks.length, failed },
          ])
          .catch((e: unknown) => o.onHistoryError?.(e));
      }
    }
    return outcome;
  } finally {
    await tracker?.close();
    await mcp?.close();
  }
}

/**
 * The MCP tools the model is offered. With an MCP server as the tracker, its filing tool is not
 * one of them: filings go through issue_file (approval, the refile guard, the marker), never
 * around it. Its list tool stays (reading is harmless).
 */
function modelMcpTools(mcp: McpSession | undefined, spec: ReturnType<typeof parseTrackerSpec>): Tool[] {
  const tools = mcp?.tools() ?? [];
  if (spec.kind !== 'mcp') return tools;
  const fileTool = mcp?.server(spec.server)?.config.tracker?.file.tool;
  return tools.filter((t) => mcpQualifiedName(t) !== `${spec.server}/${fileTool}`);
}

/**
 * The folders the tools treat as outside the workspace wherever they are: the state folder of a
 * file store (checkpoints, blobs, the embedded tracker's issues) and the store's workspaces
 * folder (other runs' copies). Either may sit inside a workspace (`--state .triage`).
 */
export function hiddenFromTools(store: RunStore): string[] {
  return [...(store.stateFolder !== undefined ? [store.stateFolder] : []), store.workspacesDir];
}

function testCommandOf(state: RunState, o: { testCommand?: string }): { testCommand?: string } {
  const c = state.config.options?.testCommand ?? o.testCommand;
  return c ? { testCommand: c } : {};
}

/** With a list, exactly the listed tools ("*": every tool) wait for a person's yes; without one, each tool's own declaration stands. */
export function withApprovals(tools: Tool[], names: readonly string[] | undefined): Tool[] {
  if (!names) return tools;
  // A view over each tool (not a copy), so getters such as issue_file's live key retention stay live.
  const named = (t: Tool): boolean => names.includes(t.name) || names.includes('*') || names.includes(mcpQualifiedName(t) ?? t.name);
  return tools.map((t) => Object.defineProperty(Object.create(t) as Tool, 'needsApproval', { value: named(t), enumerable: true }));
}

async function buildModel(o: Omit<TriageRunOptions, 'task' | 'workspace'>, task: TaskSpec, state: RunState): Promise<ModelProvider> {
  let m: ModelProvider;
  if (isProvider(o.model)) m = o.model;
  else {
    const choice: ModelChoice = o.model ?? { provider: state.config.provider as ModelChoice['provider'], model: state.config.model };
    const saved = choice.baseUrl ? undefined : savedBaseUrl(state.config.options);
    m = createProvider({
      ...choice,
      ...(saved ? { baseUrl: saved, baseUrlFrom: savedBaseUrlFrom(state.runId) } : {}),
      ...(choice.provider === 'recorded' ? { recording: await loadRecording(task.recording) } : {}),
      ...(o.prices ? { prices: new PriceTable(o.prices) } : {}),
    });
  }
  if (o.recordTo) {
    const first = state.messages[0];
    m = new RecordingProvider(m, path.resolve(o.recordTo), { task: state.task, system: state.system, prompt: first?.role === 'user' ? first.content : '' });
  }
  return o.wrapModel ? o.wrapModel(m, state) : m;
}
