/**
 * The Runs view's rows, from a run's summary (src/triage/runinfo.ts): a row per run with
 * "phase · turn N · $D · restarts R", and under it the questions waiting on a person, the
 * files it wrote and the attempt markers still unresolved.
 */
import type { RunInfo } from '../../triage/runinfo';
import { dollars as formatDollars, phaseWords } from '../../transcript/words';
import type { RunFileStatus } from '../../workspace/undo';

/** Where a run stands for this window; decides its icon and context menu. */
export type RunStatus = 'active' | 'resumable' | 'done' | 'locked' | 'corrupt';

export interface RunRow {
  runId: string;
  label: string;
  description: string;
  tooltip: string;
  status: RunStatus;
  /** The tree item's contextValue: run-<status>. */
  contextValue: string;
}

export type ChildRow =
  | { kind: 'question'; question: 'approval' | 'ladder'; runId: string; callId: string; tool: string; label: string; description: string; contextValue: string }
  | { kind: 'file'; runId: string; path: string; sha256: string; label: string; description: string; contextValue: 'file'; status?: RunFileStatus }
  | { kind: 'marker'; runId: string; callId: string; tool: string; label: string; description: string; contextValue: 'marker' };

/**
 * A short form of a run ID for the row's label: "<task>…<last 8>" when the ID is the task's
 * name, a time and a random tail (see src/agent/idempotency-key.ts), else the ID itself.
 */
export function shortRunId(runId: string, task?: string): string {
  const tail = /[-_.]([A-Za-z0-9]{6,12})$/.exec(runId)?.[1];
  if (task && tail && runId.startsWith(task) && runId.length > task.length + tail.length + 1) return `${task}…${tail}`;
  return runId.length > 48 ? `${runId.slice(0, 22)}…${runId.slice(-22)}` : runId;
}

export function runStatus(info: RunInfo, activeHere: boolean): RunStatus {
  if (info.error !== undefined) return 'corrupt';
  if (activeHere) return 'active';
  if (info.locked) return 'locked';
  return info.phase === 'done' ? 'done' : 'resumable';
}

/** A run picker's row description (Open Run, Delete Run…): where the run stands in the Runs view's words, not its phase's name. */
export function runPickDescription(s: { phase: string; turns: number; dollars: number; restarts: number }, activeHere: boolean, mark = ''): string {
  return `${mark}${phaseWords(s.phase, activeHere)} · turn ${s.turns} · ${formatDollars(s.dollars)} · restarts ${s.restarts}`;
}

export function runRow(info: RunInfo, activeHere: boolean): RunRow {
  const status = runStatus(info, activeHere);
  if (status === 'corrupt') {
    return {
      runId: info.runId,
      label: shortRunId(info.runId),
      description: 'corrupt checkpoint',
      tooltip: `${info.runId}\n${info.error ?? ''}\n${info.file}`,
      status,
      contextValue: 'run-corrupt',
    };
  }
  const description = `${phaseWords(info.phase ?? '', status === 'active')} · turn ${info.turns ?? 0} · ${formatDollars(info.dollars ?? 0)} · restarts ${info.restarts ?? 0}`;
  const where =
    status === 'active'
      ? 'running in this window'
      : status === 'locked'
        ? 'open in another window or process'
        : status === 'done'
          ? 'finished'
          : 'interrupted: can be resumed';
  const tooltip = [
    `Run ${info.runId}`,
    `task ${info.task}, ${where}`,
    `tokens: ${info.tokens?.input ?? 0} in, ${info.tokens?.output ?? 0} out`,
    info.workspace ? `workspace ${info.workspace}` : '',
    info.updatedAt ? `saved ${info.updatedAt}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
  return { runId: info.runId, label: shortRunId(info.runId, info.task), description, tooltip, status, contextValue: `run-${status}` };
}

const FILE_STATUS: Record<RunFileStatus, string> = {
  'as-written': 'as the agent wrote it',
  changed: 'changed after the agent wrote it',
  missing: 'deleted after the agent wrote it',
  undone: 'undone: as before the run',
};

/** A question's row names what its call acts on ("Approve: File issue: …"), never a call ID. */
export function questionLabel(kind: 'approval' | 'ladder', title: string): string {
  return kind === 'approval' ? `Approve: ${title}` : `Did it already happen? ${title}`;
}

/**
 * The rows under a run; `files`: where each file the run wrote stands now, when known.
 * `stoppedOnChanges`: the run stopped because files it wrote changed; its saved question is
 * not listed (answering it could only raise that stop again until the files are settled).
 */
export function childRows(info: RunInfo, files?: ReadonlyMap<string, RunFileStatus>, stoppedOnChanges = false): ChildRow[] {
  const rows: ChildRow[] = [];
  for (const p of stoppedOnChanges ? [] : info.pending) {
    const approval = p.kind === 'approval';
    rows.push({
      kind: 'question',
      question: approval ? 'approval' : 'ladder',
      runId: info.runId,
      callId: p.callId,
      tool: p.tool,
      label: questionLabel(approval ? 'approval' : 'ladder', p.title),
      description: approval ? 'waiting for your approval' : 'waiting for your answer',
      contextValue: approval ? 'question-approval' : 'question-ladder',
    });
  }
  for (const f of info.files) {
    const status = files?.get(f.path);
    const row: ChildRow = {
      kind: 'file',
      runId: info.runId,
      path: f.path,
      sha256: f.sha256,
      label: f.path,
      description: status ? FILE_STATUS[status] : `written · ${f.sha256.slice(0, 12)}`,
      contextValue: 'file',
    };
    if (status) row.status = status;
    rows.push(row);
  }
  for (const m of info.unresolved) {
    rows.push({
      kind: 'marker',
      runId: info.runId,
      callId: m.callId,
      tool: m.tool,
      label: `${m.tool} may have happened`,
      description: `attempt ${m.callId} started ${m.startedAt}, no result saved${m.keyed ? ' (keyed)' : ''}`,
      contextValue: 'marker',
    });
  }
  return rows;
}

/**
 * How many questions wait for a person here (the Runs view's badge): the saved ones of runs not
 * stopped on changed files and not open elsewhere (`elsewhere`: another window or a triage
 * process holds the run, and asks there), and the ones this window asks now, each counted once.
 */
export function waitingCount(
  saved: readonly { runId: string; callId: string; elsewhere?: boolean }[],
  asked: readonly { runId: string; callId: string }[],
  stoppedOnChanges: (runId: string) => boolean,
): number {
  const keys = new Set<string>();
  for (const q of saved) if (!stoppedOnChanges(q.runId) && !q.elsewhere) keys.add(`${q.runId}\n${q.callId}`);
  for (const q of asked) keys.add(`${q.runId}\n${q.callId}`);
  return keys.size;
}

/**
 * The Runs view's badge (on the activity bar too) for `n` waiting questions. At zero it is a badge
 * of value 0, which the editor does not draw, rather than undefined: `TreeView.badge` ignores
 * undefined while its own last value is undefined, as in an extension host just started, so the
 * badge a killed extension host left would stay.
 */
export function waitingBadge(n: number): { value: number; tooltip: string } {
  return n > 0 ? { value: n, tooltip: `${n} ${n === 1 ? 'question waits' : 'questions wait'} for you` } : { value: 0, tooltip: '' };
}

/** A Run panel's tab title: "(waiting for you)" only for a question this window can answer; one asked elsewhere says so. */
export function panelTitle(base: string, pending: number, elsewhere: boolean): string {
  if (pending === 0) return base;
  return `${base} ${elsewhere ? '(asked in another window)' : '(waiting for you)'}`;
}
