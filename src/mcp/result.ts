/** An MCP tool result as the model reads it: its text parts (or, without any, its structured content as JSON). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutput } from '../agent/tool';

export function outputOf(r: CallToolResult): ToolOutput {
  const parts: string[] = [];
  for (const c of r.content ?? []) {
    if (c.type === 'text') parts.push(c.text);
    else if (c.type === 'resource' && 'text' in c.resource) parts.push(c.resource.text);
    else parts.push(`[${c.type} content]`);
  }
  if (parts.length === 0 && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent));
  const out: ToolOutput = { content: parts.join('\n') };
  if (r.isError === true) out.isError = true;
  return out;
}

/** The result as JSON: its structured content, else its text parsed (undefined when it is not JSON). */
export function jsonOf(r: CallToolResult): unknown {
  if (r.structuredContent !== undefined) return r.structuredContent;
  const text = outputOf(r).content;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
