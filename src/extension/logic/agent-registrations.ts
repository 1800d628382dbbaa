/**
 * The one line the extension logs at activation about what it offered where VS Code's agents
 * live (pure, no vscode): which Language Model Tools it registered and which of them the editor
 * lists (vscode.lm.tools), whether `@triage` is a chat participant, and whether the `triage mcp`
 * server definition was registered. The real-editor test reads this line from the log.
 */

export interface AgentRegistrations {
  /** The tools registered with vscode.lm.registerTool, in order; undefined: the editor has no Language Model Tools. */
  tools: readonly string[] | undefined;
  /** Of our tool names, those the editor's vscode.lm.tools listed right after registering; undefined: not observable. */
  listed?: readonly string[];
  /** The participant's name (e.g. "triage") when createChatParticipant succeeded; undefined: the editor has no chat. */
  chatParticipant: string | undefined;
  /** Whether the MCP server definition provider was registered (VS Code 1.101+); a string: why registering it failed. */
  mcpDefinition: boolean | { failed: string };
  /** The editor's version (vscode.version), named when something is not available. */
  editorVersion: string;
}

/** E.g. "registered 5 Language Model Tools: a, b, …; listed by the editor (vscode.lm.tools): a, b, …; @triage chat participant; MCP server definition: not available (VS Code 1.100.3)". */
export function registrationsLine(r: AgentRegistrations): string {
  const na = `not available (VS Code ${r.editorVersion})`;
  const parts: string[] = [];
  if (r.tools === undefined) parts.push(`Language Model Tools: ${na}`);
  else {
    parts.push(`registered ${r.tools.length} Language Model Tool${r.tools.length === 1 ? '' : 's'}: ${r.tools.join(', ') || '(none)'}`);
    if (r.listed !== undefined) {
      const missing = r.tools.filter((t) => !r.listed!.includes(t));
      parts.push(`listed by the editor (vscode.lm.tools): ${r.listed.join(', ') || '(none)'}${missing.length ? `; not listed: ${missing.join(', ')}` : ''}`);
    }
  }
  parts.push(r.chatParticipant ? `@${r.chatParticipant} chat participant` : `chat participant: ${na}`);
  const mcp = r.mcpDefinition === true ? 'registered' : r.mcpDefinition === false ? na : `failed to register (${r.mcpDefinition.failed})`;
  parts.push(`MCP server definition: ${mcp}`);
  return parts.join('; ');
}

/**
 * Whether the editor's version has the final MCP server definition API (VS Code 1.101+, with the
 * `mcpServerDefinitionProviders` contribution). VS Code 1.100 has a function of the same name, a
 * proposal that wants another contribution (`modelContextServerCollections`) and throws without it.
 */
export function hasMcpDefinitionApi(editorVersion: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(editorVersion);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || (major === 1 && minor >= 101);
}
