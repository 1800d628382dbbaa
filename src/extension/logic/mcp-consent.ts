/**
 * The workspace's .vscode/mcp.json: its servers are commands the editor would run, and anyone who
 * can write the workspace can write the file, so a run uses them only once the user allowed that
 * exact file in that workspace (a modal naming each server and its command or URL). The answer is
 * kept per workspace and file content (its SHA-256): a changed file is asked about again. The file
 * is JSON with comments and trailing commas, as VS Code reads it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BadInputError } from '../../core/errors';
import { sha256Hex } from '../../core/sha256';
import { stripJsonComments } from './jsonc';

export const WORKSPACE_MCP_FILE = '.vscode/mcp.json';

/** The workspace file's servers (entries as written) and the hash its consent is kept under. */
export interface WorkspaceMcpFile {
  file: string;
  servers: Record<string, unknown>;
  hash: string;
}

const FileSchema = z.looseObject({ servers: z.record(z.string(), z.unknown()).optional() });

/** Reads the file's text; an unreadable file is a BadInputError naming it (nothing starts). */
export function parseWorkspaceMcpFile(file: string, text: string): WorkspaceMcpFile {
  let raw: unknown;
  try {
    raw = JSON.parse(stripJsonComments(text));
  } catch (e) {
    throw new BadInputError(`The workspace's MCP configuration ${file} is not JSON: ${(e as Error).message}. Fix it (or remove it) and start again.`);
  }
  const r = FileSchema.safeParse(raw);
  if (!r.success) throw new BadInputError(`The workspace's MCP configuration ${file} should be an object with a "servers" object. Fix it and start again.`);
  return { file, servers: r.data.servers ?? {}, hash: sha256Hex(text) };
}

/** The answer about one file content in one workspace: kept in the extension's global state under this key. */
export function mcpConsentKey(workspace: string, hash: string): string {
  const h = createHash('sha256')
    .update(JSON.stringify([workspace, 'mcp.json', hash]))
    .digest('hex');
  return `durableTriage.workspaceMcp.${h}`;
}

export type McpConsent = 'allowed' | 'refused';

/** What to do with the workspace file: use it, leave it out, or ask (no server: nothing to ask). */
export function workspaceMcpDecision(f: WorkspaceMcpFile | undefined, kept: unknown): 'use' | 'skip' | 'ask' {
  if (!f || Object.keys(f.servers).length === 0) return 'skip';
  if (kept === 'allowed') return 'use';
  if (kept === 'refused') return 'skip';
  return 'ask';
}

export const MCP_CONSENT_BUTTONS = { allow: 'Use These Servers', refuse: 'Not in This Workspace' } as const;

/** The modal question: each server by name with what it would run (or connect to), and the variables it is given. */
export function mcpConsentQuestion(f: WorkspaceMcpFile): { message: string; detail: string } {
  const lines = Object.entries(f.servers).map(([name, e]) => `• ${name}: ${serverSummary(e)}`);
  return {
    message: `Durable Triage: this workspace's ${WORKSPACE_MCP_FILE} configures ${lines.length === 1 ? 'an MCP server' : `${lines.length} MCP servers`}. Let runs in this workspace start and use ${lines.length === 1 ? 'it' : 'them'}?`,
    detail:
      `${lines.join('\n')}\n\n` +
      'A run would start these commands on your machine (or connect to these addresses) and let the model call their tools. ' +
      'Allow it only if you wrote this file or trust it. Asked again when the file changes. ' +
      `"${MCP_CONSENT_BUTTONS.refuse}" leaves them out (your durableTriage.mcp.servers setting is still used).`,
  };
}

function serverSummary(e: unknown): string {
  if (typeof e !== 'object' || e === null) return JSON.stringify(e);
  const s = e as Record<string, unknown>;
  const env = typeof s.env === 'object' && s.env !== null ? Object.keys(s.env) : [];
  const envText = env.length > 0 ? ` (environment: ${env.join(', ')})` : '';
  if (typeof s.url === 'string') return `connects to ${s.url}`;
  const args = Array.isArray(s.args) ? s.args.map((a) => quote(String(a))) : [];
  const cwd = typeof s.cwd === 'string' ? ` in ${s.cwd}` : '';
  return `runs ${[quote(String(s.command)), ...args].join(' ')}${cwd}${envText}`;
}

function quote(a: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a);
}
