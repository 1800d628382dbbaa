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
import { resultMarkdown } from './logic/chat';
import { handleChatRequest } from './logic/chat-handler';
import { hasMcpDefinitionApi, registrationsLine } from './logic/agent-registrations';
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
  const tools = registerLmTools(context, d, ops);
  const chatParticipant = registerChat(context, d, ops);
  const mcpDefinition = registerMcpDefinition(context, d);
  // Of our tools, those the editor lists: the editor's own view of what is registered.
  const all = (vscode.lm as Partial<typeof vscode.lm> | undefined)?.tools;
  const listed = tools && all ? all.map((t) => t.name).filter((n) => tools.includes(n)) : undefined;
  d.log.info(registrationsLine({ tools, ...(listed ? { listed } : {}), chatParticipant, mcpDefinition, editorVersion: vscode.version }));
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

/** Registers the tools; returns their names (undefined: the editor has no Language Model Tools). */
function registerLmTools(context: vscode.ExtensionContext, d: AgentSurfaceDeps, ops: Ops): string[] | undefined {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool !== 'function') {
    d.log.info('this editor has no Language Model Tools: Durable Triage offers its tools from the palette only');
    return undefined;
  }
  const names = Object.keys(AGENT_TOOLS) as AgentToolName[];
  for (const name of names) {
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
  return names;
}

/** Creates `@triage`; returns its name (undefined: the editor has no chat). */
function registerChat(context: vscode.ExtensionContext, d: AgentSurfaceDeps, ops: ReturnType<typeof agentOps>): string | undefined {
  const chat = (vscode as { chat?: Partial<typeof vscode.chat> }).chat;
  if (typeof chat?.createChatParticipant !== 'function') {
    d.log.info('this editor has no chat: @triage is not offered; everything works from the palette');
    return undefined;
  }
  const participant = chat.createChatParticipant('durableTriage.triage', async (request, _ctx, stream, token) => {
    await handleChatRequest(request, stream, token, {
      status: (runId) => ops.triage_status(runId ? { run: runId } : {}),
      start: (task) => (task ? ops.startRun({ task }) : follow(d, async () => void (await vscode.commands.executeCommand('durableTriage.start')))),
      resume: (runId) => (runId ? ops.startRun({ run: runId }) : follow(d, async () => void (await vscode.commands.executeCommand('durableTriage.resume')))),
      questions: d.questions,
      activity: (runId) => d.manager.activity(runId),
      onDidChangeRun: (listener) => d.manager.onDidChange(listener),
      result: (runId) => runResult(runId, d),
    });
    return {};
  });
  participant.iconPath = new vscode.ThemeIcon('debug-alt');
  context.subscriptions.push(participant);
  return 'triage';
}

/** The ended run's result for the chat: its phase, issues (with links) and answer. */
async function runResult(runId: string, d: AgentSurfaceDeps): Promise<string> {
  const store = await d.store();
  const state = await store.readRun(runId);
  const [{ openTracker }] = await Promise.all([import('../tracker/embedded')]);
  const t = await openTracker(store, state, undefined, await githubAccess(state.config.options?.trackerUrl));
  const issues = await t.client.search({ runId }).finally(() => t.close());
  return resultMarkdown({ runId, phase: state.phase, turns: state.turns, dollars: state.usage.dollars }, issues, state.answer);
}

/** `triage mcp` for Copilot's agent mode and other chat agents, registered where the editor has the API (VS Code 1.101+). */
function registerMcpDefinition(context: vscode.ExtensionContext, d: AgentSurfaceDeps): boolean | { failed: string } {
  type Api = {
    registerMcpServerDefinitionProvider?: (id: string, p: { provideMcpServerDefinitions(): unknown[] }) => vscode.Disposable;
  };
  const lm = vscode.lm as unknown as Api | undefined;
  const Def = (
    vscode as unknown as { McpStdioServerDefinition?: new (label: string, command: string, args: string[], env?: Record<string, string>) => unknown }
  ).McpStdioServerDefinition;
  if (!hasMcpDefinitionApi(vscode.version) || typeof lm?.registerMcpServerDefinitionProvider !== 'function' || !Def) {
    d.log.info('this editor has no MCP server definitions (VS Code 1.101+): run `triage mcp --state DIR` yourself to offer Durable Triage over MCP');
    return false;
  }
  // The CLI's bundle, shipped in the .vsix beside the extension's (.vscodeignore).
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  try {
    context.subscriptions.push(
      lm.registerMcpServerDefinitionProvider('durableTriage.mcp', {
        // The editor's own runtime as Node (ELECTRON_RUN_AS_NODE), serving this window's state folder.
        provideMcpServerDefinitions: () => [new Def('Durable Triage', process.execPath, [cli, 'mcp', '--state', d.stateDir()], { ELECTRON_RUN_AS_NODE: '1' })],
      }),
    );
  } catch (e) {
    // The editor refused it: the rest of the extension activates all the same.
    d.log.warn(`the MCP server definition could not be registered: ${(e as Error).message}`);
    return { failed: (e as Error).message };
  }
  return true;
}
