/**
 * Tool-result bytes per bundled task (issue 20): replays a task's recording through the real
 * job (the real loop and tools on a fresh copy of the sample, an embedded tracker, an approver
 * that approves) and sums the UTF-8 bytes of every tool result the conversation carries to the
 * model. The recording can be any version of the task's (e.g. an older one from git), as long
 * as it still replays against the sample. `node out/bench/run.js --only tools` prints the figures.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Approver, ApprovalAnswer, LadderAnswer } from '../src/agent/approver';
import type { ModelReply } from '../src/core/conversation';
import type { ModelProvider, ModelRequest } from '../src/model/provider';
import { loadRecording, RecordedModel } from '../src/model/recorded-provider';
import type { Recording } from '../src/model/recording-format';
import { runTriage } from '../src/triage/job';
import { tasks } from '../src/triage/tasks/catalog';
import type { Report } from './report';

export interface ToolBytes {
  task: string;
  /** Bytes of the tool results' content, summed over the conversation. */
  bytes: number;
  /** Tool results counted. */
  results: number;
}

class Yes implements Approver {
  async approve(): Promise<ApprovalAnswer> {
    return 'approve';
  }
  async resolve(): Promise<LadderAnswer> {
    throw new Error('a clean replay never reaches the ladder');
  }
}

/** The recorded model, counting the results each request brings (the last message, when it is the tools'). */
class CountingModel implements ModelProvider {
  readonly provider = 'recorded';
  bytes = 0;
  results = 0;
  constructor(private readonly inner: RecordedModel) {}
  get model(): string {
    return this.inner.model;
  }
  get prices(): RecordedModel['prices'] {
    return this.inner.prices;
  }
  complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const last = req.messages[req.messages.length - 1];
    if (last?.role === 'tool') {
      for (const r of last.results) {
        this.bytes += Buffer.byteLength(r.content, 'utf8');
        this.results++;
      }
    }
    return this.inner.complete(req, signal);
  }
}

/** Replays `recording` as task `task` and counts its tool results' bytes; throws when the replay does not finish. */
export async function toolResultBytes(task: string, recording: Recording): Promise<ToolBytes> {
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), `triage-tool-bytes-${task}-`));
  const model = new CountingModel(new RecordedModel(recording));
  try {
    const outcome = await runTriage({ stateDir, task, model, approver: new Yes(), store: { sync: false } });
    if (outcome.result.phase !== 'done') throw new Error(`${task}: the replay stopped in phase ${outcome.result.phase}`);
    return { task, bytes: model.bytes, results: model.results };
  } finally {
    await fs.rm(stateDir, { recursive: true, force: true });
  }
}

/**
 * Each bundled task's tool-result bytes before the re-authoring with the new tools (issue 20
 * item 8): the recordings of commit 6c2358b (main before the re-authoring), replayed through
 * toolResultBytes with today's tools (numbered read_file lines included).
 */
export const BYTES_BEFORE: Readonly<Record<string, number>> = {
  'm1-done-after-delete': 23_457,
  'cart-unknown-coupon': 7_617,
  'batch-parser': 37_429,
};

/** The figures: per bundled task, its recording's tool-result bytes now, against before (target: fewer). */
export async function toolBytesPerTask(report: Report): Promise<void> {
  for (const task of tasks()) {
    const before = BYTES_BEFORE[task.name];
    const now = await toolResultBytes(task.name, await loadRecording(task.recording));
    const name = `tool-result bytes, ${task.name}`;
    const note = `before ${before ?? '?'} B (recording at 6c2358b), now ${now.bytes} B over ${now.results} results`;
    if (before === undefined) report.add({ bench: 'tools', name, value: now.bytes, unit: 'B', note: `${note}; no before figure for this task` });
    else report.atMost({ bench: 'tools', name, value: now.bytes, unit: 'B', note }, before - 1, `< ${before}`);
  }
}
