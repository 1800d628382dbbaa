/**
 * The MCP sweep's scripted run: a crash-folder triage whose model, in one reply, searches the
 * knowledge graph of @modelcontextprotocol/server-memory (search_nodes: read-only, runs freely)
 * and creates an entity for the crash (create_entities: mutating, so an attempt marker first),
 * then answers. The server runs with the tap (mcp-tap.ts), which logs every call it receives.
 * Two configurations: with a lookup for create_entities (open_nodes by the entity's name), and
 * without. A scripted person answers the ladder correctly by reading the server's memory file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelProvider, ModelRequest } from '../model/provider';
import { PriceTable } from '../model/prices';
import type { ModelReply } from '../core/conversation';
import { TAP_LOG_ENV } from './mcp-tap-env';
import { sweepChildScript } from './child-script';
import type { Approver, ApprovalAnswer, LadderAnswer, LadderQuestion } from '../agent/approver';

export const MCP_SERVER = 'memory';
export const ENTITY = 'crash-parse-duration';
export const FIRST_OBSERVATION = 'TypeError in parseDuration (crashes/c1.txt)';
/** The tools the script calls, as the server names them; the mutating ones get markers. */
export const READ_TOOL = 'search_nodes';
export const MUTATING_TOOLS = ['create_entities'] as const;
/** The read tool the lookups call (the script never calls it itself, so each call of it is a lookup). */
export const LOOKUP_TOOL = 'open_nodes';

const CRASH = `TypeError: Cannot read properties of undefined (reading 'timeout')
    at parseDuration (src/duration.js:4:20)
    at load (src/config.js:9:10)
`;

function reply(turn: number, calls: [string, unknown][], text?: string): ModelReply {
  const r: ModelReply = {
    calls: calls.map(([name, args], i) => ({ id: `call_${turn}_${i}`, name: `${MCP_SERVER}__${name}`, args: JSON.stringify(args) })),
    usage: { inputTokens: 900 + 300 * turn, outputTokens: 100, dollars: 0.004 + 0.001 * turn },
    model: 'scripted',
  };
  if (text !== undefined) r.text = text;
  return r;
}

const SCRIPT: ModelReply[] = [
  reply(0, [
    [READ_TOOL, { query: 'parseDuration' }],
    ['create_entities', { entities: [{ name: ENTITY, entityType: 'crash', observations: [FIRST_OBSERVATION] }] }],
  ]),
  reply(1, [], `Recorded ${ENTITY} in the memory.`),
];

/** The workspace: one crash report in crashes/. */
export async function writeMcpWorkspace(dir: string): Promise<void> {
  await fs.promises.mkdir(path.join(dir, 'crashes'), { recursive: true });
  await fs.promises.writeFile(path.join(dir, 'crashes', 'c1.txt'), CRASH);
}

/** The tap's compiled script (loaded with --require into the server): beside this file (tsc), or `sweep-mcp-tap.js` beside the esbuild bundle. */
export function tapScript(): string {
  return sweepChildScript('mcp-tap.js', 'sweep-mcp-tap.js');
}

/** @modelcontextprotocol/server-memory's entry, from node_modules (a development dependency). */
export function memoryServerScript(): string {
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist', 'index.js');
}

/** The `--mcp` file of the sweep's run: the memory server behind the tap, with or without lookups. */
export function mcpSweepConfig(o: { memoryFile: string; log: string; lookup: boolean }): Record<string, unknown> {
  const lookup = {
    create_entities: { tool: LOOKUP_TOOL, args: { names: ['{entities.0.name}'] }, found: { path: 'entities.0.name', equals: '{entities.0.name}' } },
  };
  return {
    servers: {
      [MCP_SERVER]: {
        type: 'stdio',
        command: process.execPath,
        args: ['--require', tapScript(), memoryServerScript()],
        env: { MEMORY_FILE_PATH: o.memoryFile, [TAP_LOG_ENV]: o.log },
        ...(o.lookup ? { lookup } : {}),
      },
    },
  };
}

export class McpScriptedModel implements ModelProvider {
  readonly provider = 'scripted';
  readonly model = 'scripted';
  readonly prices = new PriceTable();
  async complete(req: ModelRequest): Promise<ModelReply> {
    const r = SCRIPT[req.turn];
    if (!r) throw new Error(`the MCP sweep's script has no turn ${req.turn}`);
    return structuredClone(r);
  }
}

interface MemoryLine {
  type: string;
  name?: string;
  observations?: string[];
}

/** The lines of the server's memory file (JSON lines; none when it was never written). */
export function memoryLines(file: string): MemoryLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MemoryLine);
}

/** Whether the server's memory shows that the script's create_entities call happened. */
export function entityCreated(memoryFile: string): boolean {
  return memoryLines(memoryFile).some((l) => l.type === 'entity' && l.name === ENTITY);
}

/**
 * Approves everything; answers the ladder by reading the memory file (done when the call's effect
 * is there, else rerun). Each question is logged (`{"t":"question","tool"}`) before it is answered.
 */
export class MemoryPerson implements Approver {
  constructor(
    private readonly memoryFile: string,
    private readonly log: (e: object) => void,
  ) {}
  async approve(): Promise<ApprovalAnswer> {
    return 'approve';
  }
  async resolve(q: LadderQuestion): Promise<LadderAnswer> {
    const tool = q.tool.slice(`${MCP_SERVER}__`.length);
    this.log({ t: 'question', tool });
    if (tool !== 'create_entities') throw new Error(`the MCP sweep's person was asked about ${q.tool}, which the script does not call`);
    return entityCreated(this.memoryFile) ? { answer: 'done', result: `a person checked the memory: ${ENTITY} is there` } : { answer: 'rerun' };
  }
}

/** Duplicates in the server's state (the entity, or its observation, more than once) and the checks that fail. */
export function judgeMemory(memoryFile: string): { duplicates: number; failedChecks: string[] } {
  const entities = memoryLines(memoryFile).filter((l) => l.type === 'entity' && l.name === ENTITY);
  let duplicates = Math.max(0, entities.length - 1);
  const observations = entities.flatMap((e) => e.observations ?? []);
  for (const o of new Set(observations)) duplicates += observations.filter((x) => x === o).length - 1;
  const failed: string[] = [];
  if (entities.length !== 1) failed.push('the entity is there once');
  if (!observations.includes(FIRST_OBSERVATION)) failed.push('its observation is there');
  return { duplicates, failedChecks: failed };
}
