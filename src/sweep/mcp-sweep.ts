/**
 * The MCP sweep (test/data/sweep-mcp.txt): the scripted run of mcp-job.ts against
 * @modelcontextprotocol/server-memory crashed at every point, with a lookup for create_entities
 * and without; keys on and off. Per configuration and keys setting: in process, one crash at every
 * point, then two (the first at every MCP_DOUBLE_FIRST_EVERY-th point: 1, 4, 7, ...; the second at
 * every MCP_DOUBLE_SECOND_EVERY-th point of the restart: 1, 8, 15, ...); then a real process killed
 * (SIGKILL) at every point. Scenarios run `parallel` at a time (each has its own folders and
 * server; most of a life is the memory server starting, about a second of CPU per life).
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeIo, useIo } from '../disk/io';
import { runMcpScenario, type McpScenario } from './mcp-scenario';
import { addMcpOutcome, emptyMcpRow, type McpSweepRow } from './mcp-table';
import { inPool } from './pool';

/** A double-crash scenario's first crash lands on every this-many-th point of the run (each life starts the memory server, so every pair would take long). */
export const MCP_DOUBLE_FIRST_EVERY = 3;
/** ... and its second on every this-many-th point of the restart. */
export const MCP_DOUBLE_SECOND_EVERY = 7;
export const MCP_PARALLEL = 4;

function range(n: number, from = 1, step = 1): number[] {
  const r: number[] = [];
  for (let i = from; i <= n; i += step) r.push(i);
  return r;
}

export async function mcpSweepRows(o: { parallel?: number; onProgress?: (done: number) => void } = {}): Promise<McpSweepRow[]> {
  const k = o.parallel ?? MCP_PARALLEL;
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-mcp-sweep-'));
  let n = 0;
  let done = 0;
  const run = async (sc: McpScenario) => {
    const r = await runMcpScenario(path.join(root, `s${n++}`), sc);
    o.onProgress?.(++done);
    return r;
  };
  try {
    const rows: McpSweepRow[] = [];
    for (const lookup of [true, false])
      for (const keys of [true, false]) {
        const single = emptyMcpRow(lookup, 'in-process', keys, 1);
        const double = emptyMcpRow(lookup, 'in-process', keys, 2);
        const killed = emptyMcpRow(lookup, 'sigkill', keys, 1);
        // In process the page cache survives the crash, so syncs would only cost time.
        const prevIo = useIo(nodeIo({ syncs: false }));
        let total: number;
        try {
          const clean = await run({ lookup, keys, kind: 'in-process', crashes: [] });
          if (!clean.finished || clean.failedChecks.length)
            throw new Error(`the MCP sweep's clean run failed: ${clean.blocked ?? clean.failedChecks.join(', ')}`);
          total = clean.points[0];
          const ones = await inPool(
            range(total).map((i) => () => run({ lookup, keys, kind: 'in-process', crashes: [i] })),
            k,
          );
          for (const one of ones) addMcpOutcome(single, one);
          const twos = await inPool(
            ones.flatMap((one, i) =>
              i % MCP_DOUBLE_FIRST_EVERY === 0
                ? range(one.points[1] ?? 0, 1, MCP_DOUBLE_SECOND_EVERY).map((j) => () => run({ lookup, keys, kind: 'in-process', crashes: [i + 1, j] }))
                : [],
            ),
            k,
          );
          for (const two of twos) addMcpOutcome(double, two);
        } finally {
          useIo(prevIo);
        }
        const kills = await inPool(
          range(total).map((i) => () => run({ lookup, keys, kind: 'sigkill', crashes: [i] })),
          k,
        );
        for (const one of kills) addMcpOutcome(killed, one);
        rows.push(single, double, killed);
      }
    return rows;
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
