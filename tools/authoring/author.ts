/**
 * Authors the bundled recordings: runs each task's real job in-process (the real loop,
 * the real tools on a fresh copy of the sample, an embedded tracker, an approver that
 * approves) with the authoring model giving the script's replies, then writes
 * samples/<task>/recording.json. Stops without writing when the script and the real
 * results disagree, when the run does not finish, or when a check fails.
 *
 *   node out/tools/authoring/author.js [task...]     (default: every task)
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Approver, ApprovalAnswer, LadderAnswer } from '../../src/agent/approver';
import type { Recording } from '../../src/model/recording-format';
import { runTriage } from '../../src/triage/job';
import { findTask, tasks } from '../../src/triage/tasks/catalog';
import type { CheckResult } from '../../src/triage/tasks/checks';
import { AuthoringModel } from './author-model';
import { ScriptBuilder } from './script';
import { scripts } from './scripts';
import { crashSets } from './crashes';
import { isUncaught, runScenario } from './crash-reports';

export interface AuthorReport {
  task: string;
  turns: number;
  calls: number;
  /** Checkpoint saves the loop made. */
  saves: number;
  dollars: number;
  inputTokens: number;
  outputTokens: number;
  checks: CheckResult[];
  recording: Recording;
  file: string;
}

/** Approves every call; the ladder never asks, since an authoring run never restarts. */
class YesApprover implements Approver {
  async approve(): Promise<ApprovalAnswer> {
    return 'approve';
  }
  async resolve(): Promise<LadderAnswer> {
    throw new Error('the authoring run restarted; author again from scratch');
  }
}

/** Authors one task's recording; writes it to `out` (default: the task's recording path) unless `write` is false. */
export async function authorTask(name: string, o: { out?: string; write?: boolean } = {}): Promise<AuthorReport> {
  const task = findTask(name);
  const script = scripts[name];
  if (!script) throw new Error(`no authoring script for task ${name}`);
  const b = new ScriptBuilder(task.sample);
  script(b);
  const model = new AuthoringModel(b.steps, name);
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), `triage-author-${name}-`));
  let saves = 0;
  try {
    const outcome = await runTriage({
      stateDir,
      task: name,
      model,
      approver: new YesApprover(),
      keys: true,
      store: { sync: false },
      onEvent: (e) => {
        if (e.type === 'saved') saves++;
      },
    }).catch((e: unknown) => {
      throw model.failure ?? e;
    });
    if (model.failure) throw model.failure;
    if (outcome.result.phase !== 'done') throw new Error(`${name}: the authoring run stopped in phase ${outcome.result.phase}`);
    if (!model.finished) throw new Error(`${name}: the run finished after ${model.turns.length} of the script's ${b.steps.length} steps`);
    const checks = outcome.checks ?? [];
    const failed = checks.filter((c) => !c.passed);
    if (failed.length > 0) throw new Error(`${name}: checks failed:\n${failed.map((c) => `  ${c.name}: ${c.detail}`).join('\n')}`);
    const stillCrashing = (crashSets[name]?.scenarios ?? []).filter((s) => isUncaught(runScenario(outcome.workspace, s)));
    if (stillCrashing.length > 0)
      throw new Error(`${name}: after the fixes these reports still crash: ${stillCrashing.map((s) => `${s.group}/${s.file}`).join(', ')}`);

    const recording = model.recording(task.system, task.prompt);
    const file = o.out ?? task.recording;
    if (o.write !== false) {
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(recording, null, 2) + '\n');
      await fs.rename(tmp, file);
    }
    const u = outcome.result.usage;
    return {
      task: name,
      turns: outcome.result.turns,
      calls: recording.turns.reduce((n, t) => n + t.reply.calls.length, 0),
      saves,
      dollars: u.dollars,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      checks,
      recording,
      file,
    };
  } finally {
    await fs.rm(stateDir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const names = argv.length > 0 ? argv : tasks().map((t) => t.name);
  for (const name of names) {
    const r = await authorTask(name);
    process.stdout.write(
      `${name}: ${r.turns} turns, ${r.calls} calls, ${r.saves} saves, ${r.inputTokens} in / ${r.outputTokens} out tokens, $${r.dollars.toFixed(4)}, ` +
        `${r.checks.length}/${r.checks.length} checks -> ${path.relative(process.cwd(), r.file)}\n`,
    );
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`author: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
