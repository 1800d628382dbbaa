/**
 * The MCP servers of a run started or resumed in this window: the user setting
 * durableTriage.mcp.servers, and the workspace's .vscode/mcp.json once the user allowed that exact
 * file (a modal, the answer kept per workspace and file content in the extension's global state).
 * Read when the run starts (or resumes), so a changed setting or file counts from the next run.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpConfig } from '../mcp/config';
import { isErrno } from '../disk/errno';
import type { ExtensionSettings } from './logic/settings';
import { MCP_SETTING_LABEL, mcpConfigOf, type McpSource } from './logic/mcp-servers';
import {
  MCP_CONSENT_BUTTONS,
  WORKSPACE_MCP_FILE,
  mcpConsentKey,
  mcpConsentQuestion,
  parseWorkspaceMcpFile,
  workspaceMcpDecision,
  type McpConsent,
  type WorkspaceMcpFile,
} from './logic/mcp-consent';

export interface McpConfigDeps {
  settings: () => ExtensionSettings;
  globalState: vscode.Memento;
  /** What identifies this workspace (its first folder's URI). */
  workspace: () => string;
  /** The open folder, when there is one. */
  folder: () => string | undefined;
  log: vscode.LogOutputChannel;
}

export async function editorMcpConfig(d: McpConfigDeps): Promise<McpConfig> {
  const sources: McpSource[] = [{ label: MCP_SETTING_LABEL, servers: d.settings().mcpServers ?? {} }];
  const folder = d.folder();
  const file = folder ? await readWorkspaceFile(folder) : undefined;
  if (file && (await workspaceFileAllowed(file, d))) sources.push({ label: file.file, servers: file.servers });
  return mcpConfigOf(sources, { env: process.env, userHome: os.homedir(), ...(folder ? { workspaceFolder: folder } : {}) });
}

async function readWorkspaceFile(folder: string): Promise<WorkspaceMcpFile | undefined> {
  const file = path.join(folder, WORKSPACE_MCP_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return undefined;
    throw e;
  }
  return parseWorkspaceMcpFile(file, text);
}

async function workspaceFileAllowed(f: WorkspaceMcpFile, d: McpConfigDeps): Promise<boolean> {
  const key = mcpConsentKey(d.workspace(), f.hash);
  const decision = workspaceMcpDecision(f, d.globalState.get(key));
  if (decision !== 'ask') return decision === 'use';
  const q = mcpConsentQuestion(f);
  const pick = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, MCP_CONSENT_BUTTONS.allow, MCP_CONSENT_BUTTONS.refuse);
  if (pick === undefined) {
    d.log.info(`${f.file}: not answered; its MCP servers are left out of this run (asked again next time)`);
    return false;
  }
  const answer: McpConsent = pick === MCP_CONSENT_BUTTONS.allow ? 'allowed' : 'refused';
  await d.globalState.update(key, answer);
  d.log.info(`${f.file}: its MCP servers are ${answer === 'allowed' ? 'allowed' : 'left out'} in this workspace (until the file changes)`);
  return answer === 'allowed';
}
