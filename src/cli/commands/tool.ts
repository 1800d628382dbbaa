/**
 * `triage tool NAME --workspace DIR [--args JSON] [--allow-writes]`: runs one of the agent's
 * tools exactly as the loop runs it (its arguments parsed by its schema, the same error text
 * the model would get) and prints the result's text: what the model would see. A tool that
 * changes something is refused (WritesNotAllowedError, exit 15) unless --allow-writes; then
 * its writes happen in DIR, recorded nowhere (no run, no ledger). The tracker tools have no
 * tracker here. search_files finds ripgrep as a run does (DURABLE_TRIAGE_RG, then rg on PATH),
 * or takes --rg PATH ("off": our own search).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError, WritesNotAllowedError } from '../../core/errors';
import { EXIT } from '../exitcodes';
import { TOOL_NAMES, triageTools } from '../../tools/index';
import { parseToolArgs } from '../../agent/tool-args';
import type { Tracker } from '../../tracker/tracker';

export async function cmdTool(args: string[]): Promise<number> {
  const { values: v, positionals } = flags(args, {
    workspace: { type: 'string' },
    args: { type: 'string', default: '{}' },
    'allow-writes': { type: 'boolean', default: false },
    rg: { type: 'string' },
  });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new BadInputError(`triage tool needs one tool name, one of: ${TOOL_NAMES.join(', ')}.`);
  if (!v.workspace) throw new BadInputError('triage tool needs --workspace DIR (the folder the tool works in).');
  const workspace = path.resolve(v.workspace as string);
  if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) throw new BadInputError(`--workspace ${workspace} is not a folder.`);
  const tools = triageTools({ tracker: noTracker(), keys: false, workspace, ...(v.rg ? { ripgrep: { path: v.rg as string } } : {}) });
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new BadInputError(`there is no tool "${name}"; the tools are ${tools.map((t) => t.name).join(', ')}.`);
  if (!tool.readOnly && v['allow-writes'] !== true) {
    throw new WritesNotAllowedError(
      `${name} changes something (it is not read-only); it runs only with --allow-writes, and then changes files in ${workspace} for real.`,
    );
  }
  const parsed = parseToolArgs(tool, v.args as string);
  if (!parsed.ok) {
    process.stdout.write(`${parsed.error}\n`);
    return EXIT.badInput;
  }
  const ac = new AbortController();
  const out = await tool.run(parsed.args, {
    runId: 'triage-tool',
    callId: 'triage-tool',
    workspace,
    signal: ac.signal,
    recordWrite: async () => {},
  });
  process.stdout.write(out.content.endsWith('\n') ? out.content : `${out.content}\n`);
  return out.isError ? EXIT.badInput : EXIT.done;
}

/** The tracker tools have no tracker outside a run: any use is bad input. */
function noTracker(): Tracker {
  return new Proxy({} as Tracker, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      return () => {
        throw new BadInputError('the tracker tools need a run\'s tracker; "triage tool" runs without one (use "triage tracker list" to see filed issues).');
      };
    },
  });
}
