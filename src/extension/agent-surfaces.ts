/**
 * Durable Triage where VS Code's agents live: the Language Model Tools (triage_start, _status,
 * _transcript, _answer, _file_issue), the `@triage` chat participant, and (VS Code 1.101+) the
 * `triage mcp` server definition. Thin: the words are logic/lm-tools.ts and logic/chat.ts, the work
 * the core's and the palette's. Each is feature-detected: an editor without chat or language model
 * tools gets none of them, and everything keeps working from the palette.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BadInputError } from '../core/errors';
import type { RunStore } from '../store/run-store';
import { AGENT_TOOLS, AGENT_TOOL_ARGS, type AgentToolName } from '../triage/agent-tools';
import { runInfo } from '../triage/runinfo';
import { prepareTool, statusMarkdown } from './logic/lm-tools';
import { CHAT_HELP, chatIntent, openRunButton, questionButtons, questionMarkdown, resultMarkdown, type ChatQuestion } from './logic/chat';
import type { ExtensionSettings } from './logic/settings';
import { ANSWERED_BY, type Questions } from './approver';
import type { Commands } from './commands';
import type { RunManager } from './run-manager';
import type { ApiKeys } from './secrets';
import { modelForStart } from './models';
import { githubAccess } from './tracker';

export interface AgentSurfaceDeps {
  log: vscode.LogOutputChannel;
  manager: RunManager;
  cmds: Commands;
  questions: Questions;
  keys: ApiKeys;
  settings: () => ExtensionSettings;
  store: () => Promise<RunStore>;
  /** The state folder `triage mcp` serves (the MCP server definition). */
  stateDir: () => string;
  workspace: () => string | undefined;
}

export function registerAgentSurfaces(context: vscode.ExtensionContext, d: AgentSurfaceDeps): void {
  const ops = agentOps(d);
  registerLmTools(context, d, ops);
  registerChat(context, d, ops);
  registerMcpDefinition(context, d);
}

type Ops = Record<AgentToolName, (input: unknown) => Promise<string>>;

/** What each operation does in the editor, over the core and the window's run manager. */
function agentOps(d: AgentSurfaceDeps): Ops & { startRun(input: unknown): Promise<{ runId?: string; done: Promise<void> }> } {
  const startRun = async (input: unknown): Promise<{ runId?: string; done: Promise<void> }> => {
    const a = AGENT_TOOL_ARGS.triage_start.parse(input);
    if (a.run) return follow(d, () => d.cmds.resumeRun(a.run!));
    if (!a.task) throw new BadInputError('triage_start needs a task (or a run to resume).');
    const ws = a.workspace ?? d.workspace();
    if (!ws) throw new BadInputError('Open the folder the agent should work in first (File: Open Folder…), or give the workspace.');
    const s = d.settings();
    const model = await modelForStart(s.provider, s, { keys: d.keys, log: d.log });
    const access = await githubAccess(a.tracker);
    return follow(d, () =>
      d.manager.start(a.task!, path.resolve(ws), model, {
        ...(a.crashes ? { crashes: a.crashes } : {}),
        ...(a.tracker ? { trackerUrl: a.tracker } : {}),
        ...(a.new ? { fresh: true } : {}),
        ...access,
      }),
    );
  };
  return {
    startRun,
    async triage_start(input) {
      const r = await startRun(input);
      return r.runId
        ? `run ${r.runId} is running in the editor; its approvals appear as notifications and in the Runs view`
        : 'the run finished (or was already open here); see triage_status';
    },
    async triage_status(input) {
      const a = AGENT_TOOL_ARGS.triage_status.parse(input);
      const runs = (await (await d.store()).listRuns()).filter((l) => !a.run || l.runId === a.run).map(runInfo);
      return statusMarkdown(runs, (id) => d.manager.activity(id));
    },
    async triage_transcript(input) {
      const a = AGENT_TOOL_ARGS.triage_transcript.parse(input);
      const [{ loadTranscript }, { transcriptText }] = await Promise.all([import('../transcript/load'), import('../transcript/text')]);
      const t = await loadTranscript(await d.store(), a.run);
      return a.json ? JSON.stringify(t) : transcriptText(t);
    },
    async triage_answer(input) {
      const a = AGENT_TOOL_ARGS.triage_answer.parse(input);
      const open = d.questions.list(a.run).find((q) => q.callId === a.call);
      const saved = open ? undefined : ((await (await d.store()).readRun(a.run)).pending ?? []).find((p) => p.callId === a.call);
      const kind = open?.kind ?? saved?.kind;
      if (!kind) throw new BadInputError(`Run ${a.run} is not waiting on a question for call ${a.call}; see triage_status.`);
      if (a.answer === 'approve' || a.answer === 'deny') {
        if (kind !== 'approval') throw new BadInputError(`Call ${a.call} waits on the ladder's question (rerun or done), not an approval.`);
        await d.cmds.answer(a.run, a.call, a.answer, ANSWERED_BY.chat);
      } else {
        if (kind !== 'ladder') throw new BadInputError(`Call ${a.call} waits on an approval (approve or deny).`);
        const ladder =
          a.answer === 'rerun'
            ? ({ answer: 'rerun' } as const)
            : ({ answer: 'done', result: a.result ?? 'Confirmed in the chat that the call had already happened.' } as const);
        if (!d.questions.answer(a.run, a.call, ladder, ANSWERED_BY.chat)) {
          d.questions.preanswer(a.run, a.call, ladder, ANSWERED_BY.chat);
          if (!d.manager.isActive(a.run)) void d.cmds.resumeRun(a.run);
        }
      }
      return `recorded ${a.answer} for call ${a.call} of run ${a.run} (the first answer wins)`;
    },
    async triage_file_issue(input) {
      const { tracker: spec, ...args } = AGENT_TOOL_ARGS.triage_file_issue.parse(input);
      const [{ openNamedTracker }, { OnceFiler }] = await Promise.all([import('../tracker/embedded'), import('../triage/file-once')]);
      const t = await openNamedTracker(await d.store(), spec, await githubAccess(spec));
      try {
        const f = await new OnceFiler().file(t.client, spec?.trim() ?? 'embedded', args);
        const what = f.replayed
          ? `already filed as issue #${f.issue.number}: ${f.issue.title}; nothing new filed`
          : `filed issue #${f.issue.number}: ${f.issue.title}`;
        return `${what}${f.issue.url ? `\nurl: ${f.issue.url}` : ''}`;
      } finally {
        await t.close();
      }
    },
  };
}

/** Kicks a run off (its promise ends with the run) and resolves with its ID once it is open here (undefined: it ended first). */
async function follow(d: AgentSurfaceDeps, kick: () => Promise<void>): Promise<{ runId?: string; done: Promise<void> }> {
  const before = d.manager.activeRunIds();
  let sub: vscode.Disposable | undefined;
  const opened = new Promise<string | undefined>((resolve) => {
    sub = d.manager.onDidChange(() => {
      const fresh = [...d.manager.activeRunIds()].find((id) => !before.has(id));
      if (fresh) resolve(fresh);
    });
  });
  const done = kick();
  const runId = await Promise.race([opened, done.then(() => undefined)]);
  sub?.dispose();
  return runId ? { runId, done } : { done };
}

function registerLmTools(context: vscode.ExtensionContext, d: AgentSurfaceDeps, ops: Ops): void {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool !== 'function') {
    d.log.info('this editor has no Language Model Tools: Durable Triage offers its tools from the palette only');
    return;
  }
  for (const name of Object.keys(AGENT_TOOLS) as AgentToolName[]) {
    context.subscriptions.push(
      lm.registerTool<unknown>(name, {
        prepareInvocation(o) {
          const p = prepareTool(name, o.input);
          return {
            invocationMessage: p.invocationMessage,
            ...(p.confirmation ? { confirmationMessages: { title: p.confirmation.title, message: new vscode.MarkdownString(p.confirmation.message) } } : {}),
          };
        },
        async invoke(o) {
          try {
            return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await ops[name](o.input))]);
          } catch (e) {
            d.log.warn(`${name}: ${(e as Error).message}`);
            throw e;
          }
        },
      }),
    );
  }
}

function registerChat(context: vscode.ExtensionContext, d: AgentSurfaceDeps, ops: ReturnType<typeof agentOps>): void {
  const chat = (vscode as { chat?: Partial<typeof vscode.chat> }).chat;
  if (typeof chat?.createChatParticipant !== 'function') {
    d.log.info('this editor has no chat: @triage is not offered; everything works from the palette');
    return;
  }
  const participant = chat.createChatParticipant('durableTriage.triage', async (request, _ctx, stream, token) => {
    const intent = chatIntent(request.command, request.prompt);
    if (intent.kind === 'help') {
      stream.markdown(CHAT_HELP);
      return {};
    }
    if (intent.kind === 'status') {
      stream.markdown(await ops.triage_status(intent.runId ? { run: intent.runId } : {}));
      for (const q of d.questions.list(intent.runId)) showQuestion(stream, q as ChatQuestion);
      return {};
    }
    stream.progress(intent.kind === 'start' ? 'Starting the run…' : 'Resuming the run…');
    const r =
      intent.kind === 'start'
        ? intent.task
          ? await ops.startRun({ task: intent.task })
          : await follow(d, async () => void (await vscode.commands.executeCommand('durableTriage.start')))
        : intent.runId
          ? await ops.startRun({ run: intent.runId })
          : await follow(d, async () => void (await vscode.commands.executeCommand('durableTriage.resume')));
    if (!r.runId) {
      stream.markdown('Nothing is running: the run was already open here, finished, or the start was cancelled. `/status` shows the runs.');
      return {};
    }
    await watch(d, r.runId, r.done, stream, token);
    return {};
  });
  participant.iconPath = new vscode.ThemeIcon('debug-alt');
  context.subscriptions.push(participant);
}

function showQuestion(stream: vscode.ChatResponseStream, q: ChatQuestion): void {
  stream.markdown(`\n\n${questionMarkdown(q)}\n\n`);
  for (const b of questionButtons(q)) stream.button(b);
}

/** Streams a run's progress and questions (as buttons) until it ends (or the chat request is cancelled: the run goes on), then its result. */
async function watch(
  d: AgentSurfaceDeps,
  runId: string,
  done: Promise<void>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<void> {
  stream.markdown(`Run \`${runId}\` is running.\n\n`);
  stream.button(openRunButton(runId));
  const shown = new Set<string>();
  const questions = (): void => {
    for (const q of d.questions.list(runId)) {
      if (shown.has(q.callId)) continue;
      shown.add(q.callId);
      showQuestion(stream, q as ChatQuestion);
    }
  };
  const subs = [
    d.manager.onDidChange((id) => {
      if (id !== runId) return;
      const doing = d.manager.activity(runId);
      if (doing) stream.progress(doing);
    }),
    d.questions.onDidChange(questions),
  ];
  questions();
  try {
    await Promise.race([done, new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()))]);
  } finally {
    for (const s of subs) s.dispose();
  }
  if (token.isCancellationRequested) return;
  const store = await d.store();
  const state = await store.readRun(runId);
  const [{ openTracker }] = await Promise.all([import('../tracker/embedded')]);
  const t = await openTracker(store, state, undefined, await githubAccess(state.config.options?.trackerUrl));
  const issues = await t.client.search({ runId }).finally(() => t.close());
  stream.markdown('\n\n' + resultMarkdown({ runId, phase: state.phase, turns: state.turns, dollars: state.usage.dollars }, issues, state.answer));
  stream.button(openRunButton(runId));
}

/** `triage mcp` for Copilot's agent mode and other chat agents, registered where the editor has the API (VS Code 1.101+). */
function registerMcpDefinition(context: vscode.ExtensionContext, d: AgentSurfaceDeps): void {
  type Api = {
    registerMcpServerDefinitionProvider?: (id: string, p: { provideMcpServerDefinitions(): unknown[] }) => vscode.Disposable;
  };
  const lm = vscode.lm as unknown as Api | undefined;
  const Def = (
    vscode as unknown as { McpStdioServerDefinition?: new (label: string, command: string, args: string[], env?: Record<string, string>) => unknown }
  ).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || !Def) {
    d.log.info('this editor has no MCP server definitions (VS Code 1.101+): run `triage mcp --state DIR` yourself to offer Durable Triage over MCP');
    return;
  }
  // The CLI's bundle, shipped in the .vsix beside the extension's (.vscodeignore).
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  context.subscriptions.push(
    lm.registerMcpServerDefinitionProvider('durableTriage.mcp', {
      // The editor's own runtime as Node (ELECTRON_RUN_AS_NODE), serving this window's state folder.
      provideMcpServerDefinitions: () => [new Def('Durable Triage', process.execPath, [cli, 'mcp', '--state', d.stateDir()], { ELECTRON_RUN_AS_NODE: '1' })],
    }),
  );
}
