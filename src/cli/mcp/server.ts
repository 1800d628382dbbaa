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
import { TriageError } from '../../core/errors';
import type { RunStore } from '../../store/run-store';
import { RunHost } from '../../triage/run-host';
import { FileIssueArgsShape, IDEMPOTENCY_META_KEY, OnceFiler } from '../../triage/file-once';
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
      inputSchema: {
        task: z.string().min(1).describe('A task name (see `triage tasks`), or "crash-folder" for your own crash reports (with workspace)'),
        workspace: z.string().min(1).optional().describe("The folder the agent works in; default: a fresh copy of the task's sample"),
        crashes: z.string().min(1).optional().describe('With crash-folder: the folder of crash reports, relative to the workspace'),
        tracker: z.string().min(1).optional().describe('embedded (default), github:OWNER/REPO, or a tracker service URL'),
        keys: z.boolean().optional().describe('Keyed tools send idempotency keys (default true)'),
        new: z.boolean().optional().describe('Start a new run even when the task has one (default: resume the latest)'),
        run: z.string().min(1).optional().describe('Resume this run by ID instead (the other fields are then ignored)'),
      },
    },
    (a) =>
      guard(async () => {
        const r = a.run
          ? await o.host.resume(a.run)
          : await o.host.start({
              task: a.task,
              ...(a.workspace ? { workspace: a.workspace } : {}),
              ...(a.crashes ? { crashes: a.crashes } : {}),
              ...(a.tracker ? { tracker: a.tracker } : {}),
              ...(a.keys !== undefined ? { keys: a.keys } : {}),
              ...(a.new ? { fresh: true } : {}),
            });
        return ok(r, `run ${r.runId} ${r.runningHere ? 'is running here already' : 'started in the background'}; see triage_status`);
      }),
  );

  server.registerTool(
    'triage_status',
    { ...MCP_TOOLS.triage_status, inputSchema: { run: z.string().min(1).optional().describe('One run by ID (default: every run of the store)') } },
    (a) => guard(async () => ok({ runs: await o.host.status(a.run) })),
  );

  server.registerTool(
    'triage_transcript',
    {
      ...MCP_TOOLS.triage_transcript,
      inputSchema: { run: z.string().min(1).describe('The run ID'), json: z.boolean().optional().describe('The transcript as one JSON object instead of text') },
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
      inputSchema: {
        run: z.string().min(1).describe('The run ID'),
        call: z.string().min(1).describe('The call the question is about (triage_status lists pending questions)'),
        answer: z.enum(['approve', 'deny', 'rerun', 'done']).describe("approve / deny an approval; rerun / done the ladder's question (did the call happen?)"),
        result: z.string().min(1).optional().describe('With done: what you found; it becomes the call\'s result'),
      },
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
        return ok({ runId: a.run, callId: a.call, answer: a.answer, resumed: true }, `recorded ${a.answer} for ${a.call}; run ${a.run} resumed in the background`);
      }),
  );

  server.registerTool(
    'triage_file_issue',
    {
      ...MCP_TOOLS.triage_file_issue,
      inputSchema: { ...FileIssueArgsShape, tracker: z.string().min(1).optional().describe('embedded (default), github:OWNER/REPO, or a tracker URL') },
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
          const what = f.replayed ? `already filed with this key as issue #${f.issue.number}: ${f.issue.title}; nothing new filed` : `filed issue #${f.issue.number}: ${f.issue.title}`;
          return ok(data, `${what}${f.issue.url ? `\nurl: ${f.issue.url}` : ''}`);
        } finally {
          await t.close();
        }
      }),
  );
  return server;
}
