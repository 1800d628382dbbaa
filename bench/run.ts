/**
 * The benchmarks: `node out/bench/run.js [--json] [--only save,growth,resume,sweep,extension,postgres,tools,worktrees,tests]`.
 * Prints a table with each figure, its target and PASS/MISS; with --json, one JSON object per
 * figure per line instead. Timings are medians over repeated runs measured side by side with
 * their baseline in the same process. A benchmark, not a test: nothing here fails `npm test`.
 */
import { Report } from './report';
import { saveOverhead } from './save-overhead';
import { batchRun, syntheticRun } from './runs';
import { growth } from './growth';
import { resume } from './resume';
import { extension } from './extension';
import { sweep } from './sweep';
import { postgres } from './pg';
import { tools } from './tools';
import { toolBytesPerTask } from './tool-bytes';
import { testTiers } from './test-tiers';
import { worktreeReadiness } from './worktree-ready';

const BENCHES = ['save', 'growth', 'resume', 'sweep', 'extension', 'postgres', 'tools', 'worktrees', 'tests'] as const;
type Bench = (typeof BENCHES)[number];

function parseArgs(argv: string[]): { json: boolean; only: Set<Bench> } {
  const json = argv.includes('--json');
  const i = argv.indexOf('--only');
  const only = new Set<Bench>(i >= 0 ? (argv[i + 1] ?? '').split(',').filter((b): b is Bench => (BENCHES as readonly string[]).includes(b)) : BENCHES);
  return { json, only };
}

async function main(): Promise<void> {
  const { json, only } = parseArgs(process.argv.slice(2));
  const report = new Report();
  const started = Date.now();
  const progress = (s: string): void => void process.stderr.write(`bench: ${s} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  let batch: Awaited<ReturnType<typeof batchRun>> | undefined;
  if (only.has('save') || only.has('postgres')) {
    progress('the batch task run once to capture its saves');
    batch = await batchRun().catch((e: Error) => {
      report.add({ bench: 'save', name: 'batch-parser (real saves)', value: null, unit: '', note: `could not run the batch task: ${e.message}` });
      return undefined;
    });
  }
  if (only.has('save')) {
    progress('save overhead: the batch task');
    try {
      if (batch) await saveOverhead(report, batch, 7);
    } catch (e) {
      report.add({ bench: 'save', name: 'batch-parser (real saves)', value: null, unit: '', note: `could not run the batch task: ${(e as Error).message}` });
    }
    progress('save overhead: synthetic run');
    await saveOverhead(report, syntheticRun(), 7);
  }
  if (only.has('growth')) {
    progress('growth: 100 to 32k messages');
    await growth(report);
  }
  if (only.has('resume')) {
    progress('resume: 10, 100, 1000 files');
    await resume(report);
  }
  if (only.has('sweep')) {
    progress('sweep: in-process, then SIGKILL (keys on)');
    await sweep(report);
  }
  if (only.has('postgres')) {
    progress('postgres: save cost and a fleet of workers');
    await postgres(report, batch, progress);
  }
  if (only.has('tools')) {
    progress('tools: search_files vs rg on 5,400 files, read_file of one function');
    await tools(report);
    progress('tools: tool-result bytes per bundled task (replays of the recordings)');
    await toolBytesPerTask(report);
  }
  if (only.has('worktrees')) {
    progress("worktrees: a cause's worktree ready to test, per ecosystem, against git worktree add");
    await worktreeReadiness(report);
  }
  if (only.has('extension')) {
    progress('extension: sizes and activation');
    await extension(report);
  }
  if (only.has('tests')) {
    progress("tests: the last test run's tier times against their budgets");
    testTiers(report);
  }
  progress('done');
  process.stdout.write(json ? report.json() : report.table());
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 1;
});
