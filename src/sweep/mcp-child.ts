/**
 * One life of a SIGKILL MCP-sweep scenario, as its own process (see mcp-scenario.ts): argv[2] is
 * `{dir, keys, crashAt}`; it sends itself SIGKILL at the crashAt-th crash point (0: never), and
 * prints `{points, phase}` as JSON when it ends without being killed.
 */
import type { CrashHook } from '../store/crash-points';
import { mcpLife } from './mcp-life';

export interface McpChildConfig {
  dir: string;
  keys: boolean;
  crashAt: number;
}

async function life(cfg: McpChildConfig): Promise<void> {
  let points = 0;
  const crash: CrashHook = () => {
    points++;
    if (points === cfg.crashAt) process.kill(process.pid, 'SIGKILL');
  };
  const phase = await mcpLife(cfg.dir, cfg.keys, true, crash);
  process.stdout.write(JSON.stringify({ points, phase }) + '\n');
}

life(JSON.parse(process.argv[2]) as McpChildConfig).catch((e) => {
  process.stderr.write(String((e as Error)?.stack ?? e) + '\n');
  process.exitCode = 1;
});
