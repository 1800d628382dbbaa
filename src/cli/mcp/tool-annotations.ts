/** The MCP form of the operations' names, descriptions and hints (triage/agent-tools.ts). */
import { AGENT_TOOLS, type AgentToolName } from '../../triage/agent-tools';

export const MCP_TOOLS = Object.fromEntries(
  Object.entries(AGENT_TOOLS).map(([name, t]) => [name, { title: t.title, description: t.description, annotations: { title: t.title, ...t.annotations } }]),
) as Record<AgentToolName, { title: string; description: string; annotations: { title: string } & (typeof AGENT_TOOLS)[AgentToolName]['annotations'] }>;
