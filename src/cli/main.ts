/**
 * `triage`: the headless front end over the same core the extension uses.
 */
import { BadInputError } from '../core/errors';
import { EXIT } from './exitcodes';
import { reportFailure } from './report-failure';
import { USAGE } from './usage';
import { cmdRun } from './commands/run';
import { cmdStatus } from './commands/status';
import { cmdShow } from './commands/show';
import { cmdTasks } from './commands/tasks';
import { cmdTracker } from './commands/tracker';
import { cmdDemo } from './commands/demo';
import { cmdWorker } from './commands/worker';
import { cmdEnqueue } from './commands/enqueue';
import { cmdAnswer } from './commands/answer';
import { cmdGroup } from './commands/group';
import { cmdTool } from './commands/tool';
import { cmdWorktrees } from './commands/worktrees';

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'run':
        return await cmdRun(rest);
      case 'status':
        return await cmdStatus(rest);
      case 'group':
        return await cmdGroup(rest);
      case 'show':
        return await cmdShow(rest);
      case 'tasks':
        return await cmdTasks(rest);
      case 'tracker':
        return await cmdTracker(rest);
      case 'sweep':
        // The crash harness is not part of the CLI: bin/triage.js loads src/sweep/cli.ts for it.
        throw new BadInputError(
          '"triage sweep" runs the crash harness, which bin/triage.js loads apart from the CLI: run it as "node bin/triage.js sweep" (or "triage sweep").',
        );
      case 'demo':
        return await cmdDemo(rest);
      case 'worker':
        return await cmdWorker(rest);
      case 'enqueue':
        return await cmdEnqueue(rest);
      case 'answer':
        return await cmdAnswer(rest);
      case 'mcp':
        // Loaded when asked for: the MCP SDK is not parsed by every other command.
        return await (await import('./commands/mcp')).cmdMcp(rest);
      case 'tool':
        return await cmdTool(rest);
      case 'worktrees':
        return await cmdWorktrees(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE + '\n');
        return cmd === undefined ? EXIT.badInput : EXIT.done;
      default:
        throw new BadInputError(`Unknown command "${cmd}".\n\n${USAGE}`);
    }
  } catch (e) {
    return reportFailure(e);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`triage: ${(e as Error)?.stack ?? e}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
