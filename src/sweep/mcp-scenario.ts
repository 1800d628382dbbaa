/**
 * One MCP sweep scenario: a fresh folder, lives until the run is done (at most MAX_LIVES), each
 * crashing at its point of `crashes` (in process: SimulatedCrash; sigkill: a child process that
 * sends itself SIGKILL), then the count: from the server's memory file (duplicates, the checks)
 * and from the log (calls received twice or unasked, questions, lookups, pending calls).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { CrashHook } from '../store/crash-points';
import { SimulatedCrash } from './simulated-crash';
import { nodeChildEnv } from '../runners/node-child';
import { sweepChildScript } from './child-script';
import { judgeMemory } from './mcp-job';
import { appendLog, mcpLife, pendingCalls, prepareScenario } from './mcp-life';
import type { McpChildConfig } from './mcp-child';
import { countMcpLog, parseLog } from './mcp-count';
import type { McpScenarioOutcome, McpSweepKind } from './mcp-table';

const MAX_LIVES = 6;

export interface McpScenario {
  lookup: boolean;
  keys: boolean;
  kind: McpSweepKind;
  /** Crash at the N-th point of each life, in order; lives past the list run clean. */
  crashes: number[];
}

interface LifeEnd {
  /** Points passed (unknown for a killed child: its crash point). */
  points: number;
  crashed: boolean;
  phase?: string;
  blocked?: string;
}

async function inProcessLife(dir: string, keys: boolean, crashAt: number | undefined): Promise<LifeEnd> {
  let points = 0;
  const crash: CrashHook = (point) => {
    points++;
    if (points === crashAt) throw new SimulatedCrash(point);
  };
  try {
    const phase = await mcpLife(dir, keys, false, crash);
    return { points, crashed: false, phase };
  } catch (e) {
    if (e instanceof SimulatedCrash) return { points, crashed: true };
    return { points, crashed: false, blocked: String(e) };
  }
}

function childScript(): string {
  return sweepChildScript('mcp-child.js', 'sweep-mcp-child.js');
}

function killedLife(dir: string, keys: boolean, crashAt: number | undefined): Promise<LifeEnd> {
  const cfg: McpChildConfig = { dir, keys, crashAt: crashAt ?? 0 };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript(), JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'], env: nodeChildEnv() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') return resolve({ points: cfg.crashAt, crashed: true });
      const last = out.trim().split('\n').filter(Boolean).pop();
      if (code !== 0 || last === undefined) return resolve({ points: 0, crashed: false, blocked: err.trim().split('\n')[0] || `exit ${code}` });
      const r = JSON.parse(last) as { points: number; phase: string };
      resolve({ points: r.points, crashed: false, phase: r.phase });
    });
  });
}

export async function runMcpScenario(dir: string, sc: McpScenario): Promise<McpScenarioOutcome & { points: number[] }> {
  const f = await prepareScenario(dir, sc.lookup);
  const points: number[] = [];
  let finished = false;
  let blocked: string | undefined;
  try {
    for (let life = 0; life < MAX_LIVES && !finished && blocked === undefined; life++) {
      appendLog(f.log, { t: 'life', pending: life === 0 ? [] : await pendingCalls(dir) });
      const crashAt = sc.crashes[life];
      const end = sc.kind === 'in-process' ? await inProcessLife(dir, sc.keys, crashAt) : await killedLife(dir, sc.keys, crashAt);
      if (crashAt !== undefined && !end.crashed && end.blocked === undefined)
        throw new Error(`the MCP sweep's life ${life} was to crash at point ${crashAt} but passed only ${end.points}`);
      points.push(end.points);
      blocked = end.blocked;
      finished = end.phase === 'done';
    }
    const memory = judgeMemory(f.memory);
    const log = countMcpLog(parseLog(fs.existsSync(f.log) ? fs.readFileSync(f.log, 'utf8') : ''), sc.keys);
    const failedChecks = [...memory.failedChecks, ...(log.badKeys ? [`${log.badKeys} call(s) with the wrong _meta key`] : [])];
    return {
      points,
      finished,
      pending: log.pending,
      questions: log.questions,
      lookups: log.lookups,
      duplicates: memory.duplicates,
      twice: log.twice,
      unasked: log.unasked,
      failedChecks,
      where: `${sc.kind} crashes at points ${sc.crashes.join(', ') || 'none'}`,
      ...(blocked !== undefined ? { blocked } : {}),
    };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
