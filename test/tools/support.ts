/** Shared fixtures for the tool tests: a temp workspace, a ToolContext that records writes. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Tool, ToolContext, ToolOutput } from '../../src/agent/tool';
import { parseToolArgs } from '../../src/agent/tool-args';

/** Writes `files` (relative path -> text) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, text);
  }
}

export interface RecordingContext extends ToolContext {
  writes: { rel: string; content: Buffer }[];
}

export function context(workspace: string, o: Partial<Pick<ToolContext, 'runId' | 'callId' | 'key' | 'signal'>> = {}): RecordingContext {
  const writes: { rel: string; content: Buffer }[] = [];
  return {
    runId: o.runId ?? 'run-1',
    callId: o.callId ?? 'call-1',
    workspace,
    ...(o.key !== undefined ? { key: o.key } : {}),
    signal: o.signal ?? new AbortController().signal,
    writes,
    async recordWrite(rel, content) {
      writes.push({ rel, content: Buffer.from(content) });
    },
  };
}

/** Calls a tool as the loop does: its arguments (any JSON the model might send) parsed by its schema first; a refusal is the error result the model gets. */
export async function callTool<A>(tool: Tool<A>, args: unknown, ctx: ToolContext): Promise<ToolOutput> {
  const parsed = parseToolArgs(tool, JSON.stringify(args));
  if (!parsed.ok) return { content: parsed.error, isError: true };
  return tool.run(parsed.args, ctx);
}

/** A tool of any argument type, for tables of calls to different tools. */
export function anyTool(tool: Pick<Tool, 'name'>): Tool {
  return tool as Tool;
}
