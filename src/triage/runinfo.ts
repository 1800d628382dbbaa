/**
 * A run's summary for status listings (the CLI's `status`, the extension's Runs view).
 */
import type { RunListing } from '../store/run-store';
import { describeCall } from '../transcript/calls';

export interface RunInfo {
  runId: string;
  file: string;
  task?: string;
  phase?: string;
  turns?: number;
  restarts?: number;
  dollars?: number;
  tokens?: { input: number; output: number };
  workspace?: string;
  locked: boolean;
  /** The questions waiting on a person, each with what its call acts on ("File issue: …"). */
  pending: { kind: string; callId: string; tool: string; title: string }[];
  /** Attempt markers whose call has no saved result: the ladder will resolve them on resume. */
  unresolved: { callId: string; tool: string; startedAt: string; keyed: boolean }[];
  files: { path: string; sha256: string }[];
  updatedAt?: string;
  error?: string;
}

export function runInfo(l: RunListing): RunInfo {
  const s = l.state;
  if (!s) return { runId: l.runId, file: l.file, locked: l.locked, pending: [], unresolved: [], files: [], error: l.error?.message ?? 'unreadable' };
  return {
    runId: s.runId,
    file: l.file,
    task: s.task,
    phase: s.phase,
    turns: s.turns,
    restarts: s.restarts,
    dollars: s.usage.dollars,
    tokens: { input: s.usage.inputTokens, output: s.usage.outputTokens },
    workspace: s.config.workspace,
    locked: l.locked,
    pending: (s.pending ?? []).map((p) => ({
      kind: p.kind,
      callId: p.callId,
      tool: p.tool,
      title: describeCall({ id: p.callId, name: p.tool, args: p.args }).title,
    })),
    unresolved: Object.values(s.attempts ?? {})
      .filter((m) => !s.results?.[m.callId])
      .map((m) => ({ callId: m.callId, tool: m.tool, startedAt: m.startedAt, keyed: m.key !== undefined })),
    files: Object.entries(s.files ?? {}).map(([p, f]) => ({ path: p, sha256: f.sha256 })),
    updatedAt: s.updatedAt,
  };
}
