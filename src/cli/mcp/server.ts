/**
 * `triage mcp`'s server: Durable Triage as MCP tools for other agents, over the same core the
 * CLI's run, status, show and answer use. Runs go on in the background of this process (RunHost);
 * their questions pause them, saved, until triage_answer answers. triage_file_issue files once per
 * idempotency key: the caller's, in the request's `_meta["io.durabletriage/idempotency-key"]`, or
 * one derived from the arguments.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BadInputError, TriageError } from '../../core/errors';
import type { RunStore } from '../../store/run-store';
import { RunHost } from '../../triage/run-host';
import { IDEMPOTENCY_META_KEY, OnceFiler } from '../../triage/file-once';
import { AGENT_TOOL_INPUTS } from '../../triage/agent-tools';
import { openNamedTracker, type TrackerAccess } from '../../tracker/embedded';
import { loadTranscript } from '../../transcript/load';
import { transcriptText } from '../../transcript/text';
import { MCP_TOOLS } from './tool-annotations';

export interface TriageMcpOptions {
  store: RunStore;
  host: RunHost;
  /** The tracker triage_file_issue files into when the call names none (default: the store's embedded tracker). */
  tracker?: string;
  access?: TrackerAccess;
  version: string;
}

function ok(data: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(data) }], structuredContent: data };
}

/** A typed error (bad input, a tracker down) is the tool's error result, with its message; anything else is thrown (a protocol error). */
async function guard(f: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TriageError || e instanceof z.ZodError) return { isError: true, content: [{ type: 'text', text: (e as Error).message }] };
    throw e;
  }
}

export function triageMcpServer(o: TriageMcpOptions): McpServer {
  const server = new McpServer({ name: 'durable-triage', version: o.version });
  const filer = new OnceFiler();

  server.registerTool(
    'triage_start',
    {
      ...MCP_TOOLS.triage_start,
      inputSchema: AGENT_TOOL_INPUTS.triage_start,
    },
    (a) =>
      guard(async () => {
        if (!a.run && !a.task) throw new BadInputError('triage_start needs a task (or a run to resume).');
        const r = a.run
          ? await o.host.resume(a.run)
          : await o.host.start({
              task: a.task!,
              ...(a.workspace ? { workspace: a.workspace } : {}),
              ...(a.crashes ? { crashes: a.crashes } : {}),
              ...(a.tracker ? { tracker: a.tracker } : {}),
              ...(a.keys !== undefined ? { keys: a.keys } : {}),
              ...(a.new ? { fresh: true } : {}),
            });
        return ok(r, `run ${r.runId} ${r.runningHere ? 'is running here already' : 'started in the background'}; see triage_status`);
      }),
  );

  server.registerTool('triage_status', { ...MCP_TOOLS.triage_status, inputSchema: AGENT_TOOL_INPUTS.triage_status }, (a) =>
    guard(async () => ok({ runs: await o.host.status(a.run) })),
  );

  server.registerTool(
    'triage_transcript',
    {
      ...MCP_TOOLS.triage_transcript,
      inputSchema: AGENT_TOOL_INPUTS.triage_transcript,
    },
    (a) =>
      guard(async () => {
        const t = await loadTranscript(o.store, a.run);
        return a.json ? ok({ transcript: t }) : { content: [{ type: 'text', text: transcriptText(t) }] };
      }),
  );

  server.registerTool(
    'triage_answer',
    {
      ...MCP_TOOLS.triage_answer,
      inputSchema: AGENT_TOOL_INPUTS.triage_answer,
    },
    (a) =>
      guard(async () => {
        const answer =
          a.answer === 'approve' || a.answer === 'deny'
            ? a.answer
            : a.answer === 'rerun'
              ? ({ answer: 'rerun' } as const)
              : ({ answer: 'done', result: a.result ?? 'The caller confirmed the call had already happened.' } as const);
        await o.host.answer(a.run, a.call, answer);
        return ok(
          { runId: a.run, callId: a.call, answer: a.answer, resumed: true },
          `recorded ${a.answer} for ${a.call}; run ${a.run} resumed in the background`,
        );
      }),
  );

  server.registerTool(
    'triage_file_issue',
    {
      ...MCP_TOOLS.triage_file_issue,
      inputSchema: AGENT_TOOL_INPUTS.triage_file_issue,
    },
    (a, extra) =>
      guard(async () => {
        const meta = extra._meta as Record<string, unknown> | undefined;
        const callerKey = meta?.[IDEMPOTENCY_META_KEY];
        if (callerKey !== undefined && typeof callerKey !== 'string')
          return { isError: true, content: [{ type: 'text', text: `_meta["${IDEMPOTENCY_META_KEY}"] should be a string; nothing was filed.` }] };
        const { tracker: spec, ...args } = a;
        const named = spec ?? o.tracker;
        const t = await openNamedTracker(o.store, named, o.access);
        try {
          const f = await filer.file(t.client, named?.trim() ?? 'embedded', args, callerKey, extra.signal);
          const data = { issue: f.issue, key: f.key, derivedKey: f.derivedKey, replayed: f.replayed, tracker: named ?? 'embedded' };
          const what = f.replayed
            ? `already filed with this key as issue #${f.issue.number}: ${f.issue.title}; nothing new filed`
            : `filed issue #${f.issue.number}: ${f.issue.title}`;
          return ok(data, `${what}${f.issue.url ? `\nurl: ${f.issue.url}` : ''}`);
        } finally {
          await t.close();
        }
      }),
  );
  return server;
}
