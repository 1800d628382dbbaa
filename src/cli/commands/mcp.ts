/**
 * `triage mcp --state DIR|--store URL [--model ...] [--tracker SPEC] [--approve-tools a,b|*] [limits]`:
 * an MCP server on stdin/stdout (for Claude Code, Codex, Cline, VS Code's agent mode) exposing
 * triage_start, triage_status, triage_transcript, triage_answer and triage_file_issue over one
 * run store. It serves until stdin closes (or SIGINT/SIGTERM); runs under way then pause with
 * their state saved, and `triage run` or triage_start resumes them.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags } from '../store-flag';
import { MODEL_FLAGS, modelFromFlags } from '../model-flag';
import { LIMIT_FLAGS, limitsFromFlags } from '../limit-flags';
import { BadInputError } from '../../core/errors';
import { parseTrackerSpec } from '../../tracker/spec';
import { githubApiUrl } from '../../tracker/github/spec';
import { RunHost } from '../../triage/run-host';
import { triageMcpServer } from '../mcp/server';
import { EXIT } from '../exitcodes';

const VERSION = '0.1.0';

export async function cmdMcp(args: string[]): Promise<number> {
  const { values: v } = flags(args, { ...STORE_FLAGS, ...MODEL_FLAGS, ...LIMIT_FLAGS, tracker: { type: 'string' }, 'approve-tools': { type: 'string' } });
  const model = modelFromFlags(v);
  const limits = limitsFromFlags(v);
  // Refused before the server starts (an MCP server's tracker needs a run's --mcp file, which triage mcp has not).
  if (v.tracker !== undefined && parseTrackerSpec(v.tracker as string).kind === 'mcp')
    throw new BadInputError(
      `triage mcp cannot file into ${(v.tracker as string).trim()}: an MCP server's tracker is a run's (triage run --mcp FILE --tracker mcp:SERVER).`,
    );
  const store = storeFromFlags(v, 'triage mcp');
  const access = {
    ...(process.env.GITHUB_TOKEN ? { githubToken: process.env.GITHUB_TOKEN } : {}),
    ...(process.env.GITHUB_API_URL ? { githubApiUrl: githubApiUrl() } : {}),
  };
  const approvalTools =
    v['approve-tools'] === undefined
      ? undefined
      : (v['approve-tools'] as string)
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
  const host = new RunHost({ store, limits, ...(model ? { model } : {}), ...(approvalTools ? { approvalTools } : {}), ...access });
  const server = triageMcpServer({ store, host, ...(v.tracker ? { tracker: v.tracker as string } : {}), access, version: VERSION });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`triage mcp: serving the runs of ${store.where} on stdio\n`);
  await closed;
  await host.close();
  await server.close().catch(() => {});
  await store.close();
  return EXIT.done;
}
