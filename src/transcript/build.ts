/**
 * Builds a run's transcript from its saved state (authoritative for messages, calls, results
 * and usage) and its event record (restarts and why, ladder decisions with their rung, saved
 * replies reused, answers and who gave them, workspace checks, how lives stopped). A pure
 * function: the same state and record give the same transcript, in the CLI and the editor.
 *
 * History goes where it happened: a restart marker before the call the restarted life went on
 * with (or before the next reply), ladder decisions and answers on their call, and a run's last
 * stop, a person's choices after it, and an undo at the end.
 */
import { ABSENT, type RunState } from '../store/state';
import { type Message, type ToolCall, type ToolResult } from '../core/conversation';
import type { RunEvent, RunEventLog } from '../store/run-event';
import { DENIED } from '../agent/loop';
import { callLayout, describeCall, describeResult, filedIssue } from './calls';
import { causeRows } from './causes';
import { mcpCallLook, mcpToolOf } from './mcp-calls';
import type { CallView, Entry, Note, Transcript } from '../core/transcript';
import { phaseWords } from './words';
import { GITHUB_API_DEFAULT, githubIssueWebUrl } from '../tracker/github/spec';
import { parseTrackerSpec } from '../tracker/spec';

type Stopped = Extract<RunEvent, { type: 'stopped' }>;
type Ladder = Extract<RunEvent, { type: 'ladder' }>;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Why the life before a restart ended, in words. */
function stopWords(s: Stopped | undefined): string {
  if (!s) return "after the process ended without saving (the editor's extension host or the CLI stopped: a crash or a kill)";
  switch (s.how) {
    case 'paused':
      return 'after it paused for a person';
    case 'cancelled':
      return s.code === WINDOW_CLOSED ? 'after the window was reloaded or closed' : 'after you cancelled it';
    case 'done':
      return 'after it finished';
    default:
      if (s.code === 'workspace-changed') return `after it stopped because files it wrote had changed${s.files?.length ? ` (${s.files.join(', ')})` : ''}`;
      // The editor's connection going away mid-call (a reload) surfaces as this error of its RPC channel: say what happened.
      if (s.message !== undefined && CHANNEL_CLOSED.test(s.message)) return 'after the window was reloaded or closed';
      return `after it stopped: ${s.message ?? s.code ?? 'an error'}`;
  }
}

const WINDOW_CLOSED = 'window-closed';
const CHANNEL_CLOSED = /^Channel has been closed\.?$/;

/** The stop on changed files, in a person's words, with the ways on the run's model really has (the recorded demo cannot go on from edited files). */
function changedWords(s: Stopped, provider: string): string[] {
  const files = s.files?.length ? s.files.join(', ') : 'files the run wrote';
  const ways =
    provider === 'recorded'
      ? "Resume the run to choose: Restore puts the agent's version back (the recorded demo cannot go on from edited files), or Abandon."
      : "Resume the run to choose: Restore puts the agent's version back, Keep My Edits goes on with yours (the model is told what changed), or Abandon.";
  return [`Changed since the agent wrote ${s.files?.length === 1 ? 'it' : 'them'}: ${files}. Its question is not asked until this is settled.`, ways];
}

function ladderWords(e: Ladder, title: string): string {
  const who = e.by ? `, ${e.by}` : '';
  switch (`${e.rung}:${e.outcome}`) {
    case 'rerun:rerun':
      return `Ladder, rung 1 (rerun): repeating "${title}" is harmless, so it ran again.`;
    case 'lookup:done':
      return `Ladder, rung 2 (lookup): "${title}" had already happened; nothing repeated, the lookup's answer is its result.`;
    case 'lookup:not-done':
      return `Ladder, rung 2 (lookup): "${title}" had not happened; it ran now.`;
    case 'lookup:unsure':
      return `Ladder, rung 2 (lookup): could not tell whether "${title}" happened; a person was asked.`;
    case 'person:done':
      return `Ladder, rung 3 (a person${who}): "${title}" had happened; not repeated, their note is its result.`;
    case 'person:rerun':
      return `Ladder, rung 3 (a person${who}): "${title}" had not happened; it ran again.`;
    default:
      return `Ladder, rung ${e.rung}: ${e.outcome} for "${title}".`;
  }
}

/** The restart marker's one-line summary of its life's ladder decisions ("the ladder found … already applied, nothing repeated"). */
function ladderSummary(ls: Ladder[], titles: Map<string, string>): string[] {
  return ls.map((l) => {
    const t = titles.get(l.callId) ?? l.tool;
    if (l.rung === 'lookup' && l.outcome === 'done') return `The ladder found "${t}" already done: nothing repeated.`;
    if (l.rung === 'rerun') return `The ladder ran "${t}" again (a repeat is harmless).`;
    if (l.rung === 'lookup' && l.outcome === 'not-done') return `The ladder found "${t}" had not happened and ran it.`;
    if (l.rung === 'person') return `A person told the ladder "${t}" ${l.outcome === 'done' ? 'had happened' : 'had not happened'}.`;
    return `The ladder could not tell about "${t}" and asked a person.`;
  });
}

function callOf(call: ToolCall, turn: number, result: ToolResult | undefined, state: RunState): CallView {
  const v: CallView = { callId: call.id, tool: call.name, ...describeCall(call), status: 'not-run', notes: [], ...callLayout(call.name) };
  const mcp = mcpToolOf(state, call.name);
  if (mcp) Object.assign(v, mcpCallLook(v, mcp));
  if (result) {
    v.result = describeResult(call, result);
    v.status = result.isError ? (result.content === DENIED ? 'denied' : 'error') : 'done';
  } else if (state.pending?.some((p) => p.callId === call.id)) v.status = 'waiting';
  else if (state.attempts?.[call.id]) v.status = 'unresolved';
  void turn;
  return v;
}

/** The transcript of a run (see the module comment). */
export function buildTranscript(state: RunState, log: RunEventLog = { events: [], skipped: 0 }): Transcript {
  const results = new Map<string, ToolResult>();
  for (const m of state.messages) if (m.role === 'tool') for (const r of m.results) results.set(r.callId, r);
  for (const r of Object.values(state.results ?? {})) results.set(r.callId, r);

  // The state's entries, in order.
  const base: Entry[] = [];
  const callAt = new Map<string, number>();
  const turnAt = new Map<number, number>();
  const calls = new Map<string, CallView>();
  const toolCalls: ToolCall[] = [];
  let turn = 0;
  state.messages.forEach((m: Message, i: number) => {
    if (m.role === 'user') base.push(i === 0 ? { kind: 'prompt', text: m.content } : { kind: 'message', text: m.content });
    else if (m.role === 'assistant') {
      turn++;
      turnAt.set(turn, base.length);
      const t: Entry = { kind: 'turn', turn, calls: m.calls?.length ?? 0 };
      // The final reply's words are the answer, shown once, as the answer.
      const isAnswer = state.phase === 'done' && i === state.messages.length - 1 && !m.calls?.length && m.text === state.answer;
      if (m.text && !isAnswer) t.text = m.text;
      base.push(t);
      for (const c of m.calls ?? []) {
        toolCalls.push(c);
        const v = callOf(c, turn, results.get(c.id), state);
        calls.set(c.id, v);
        callAt.set(c.id, base.length);
        base.push({ kind: 'call', turn, call: v });
      }
    }
  });
  const titles = new Map([...calls].map(([id, c]) => [id, c.title]));
  const ladderByCall = new Map<string, string[]>();

  // History: each event placed before a base index (Infinity: at the end), in record order.
  const placed: { at: number; entry: Entry }[] = [];
  const events = log.events;
  let lastStop: Stopped | undefined;
  let between: string[] = [];
  let restarts = 0;
  let marker: Extract<Entry, { kind: 'history' }> | undefined;
  let markerLadders: Ladder[] = [];
  const closeMarker = (): void => {
    if (marker && markerLadders.length > 0) marker.lines.push(...ladderSummary(markerLadders, titles));
    marker = undefined;
    markerLadders = [];
  };
  let lastAnswerCall: string | undefined;
  let checks: Transcript['checks'];
  const tail: Entry[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'opened': {
        closeMarker();
        if (!e.resumed) {
          lastStop = undefined;
          break;
        }
        if (!e.reask) restarts++;
        const title = e.reask
          ? `Reopened at turn ${e.turn} to ask the saved question again (not a restart) ${stopWords(lastStop)}`
          : `Restart ${restarts}: resumed at turn ${e.turn} ${stopWords(lastStop)}`;
        const lines = [...between];
        if (!e.reask && (e.phase === 'tools' || e.phase === 'paused')) lines.push(`The saved reply of turn ${e.turn} was reused: not paid for again.`);
        marker = { kind: 'history', tone: 'history', title, lines, at: e.at };
        const at = e.nextCall !== undefined && callAt.has(e.nextCall) ? callAt.get(e.nextCall)! : (turnAt.get(e.turn + 1) ?? Infinity);
        placed.push({ at, entry: marker });
        lastStop = undefined;
        between = [];
        break;
      }
      case 'workspace-checked':
        if (e.after === 'restart')
          marker?.lines.push(
            e.files === 0
              ? 'Workspace checked: the run had written no files yet.'
              : `Workspace checked: ${plural(e.files, 'file')} the run wrote ${e.files === 1 ? 'is' : 'are'} as it left ${e.files === 1 ? 'it' : 'them'}.`,
          );
        else if (lastAnswerCall)
          calls.get(lastAnswerCall)?.notes.push({
            tone: 'info',
            text:
              e.files === 0
                ? 'Workspace checked again after the answer: the run had written no files yet.'
                : `Workspace checked again after the answer: ${plural(e.files, 'file')} as the run left ${e.files === 1 ? 'it' : 'them'}.`,
            at: e.at,
          });
        break;
      case 'reply': {
        const i = turnAt.get(e.turn);
        const t = i === undefined ? undefined : base[i];
        if (t?.kind === 'turn') t.usage = e.usage;
        break;
      }
      case 'ladder': {
        const c = calls.get(e.callId);
        c?.notes.push({ tone: 'history', text: ladderWords(e, c.title), at: e.at });
        if (c) ladderByCall.set(e.callId, [...(ladderByCall.get(e.callId) ?? []), ladderWords(e, c.title)]);
        if (marker) markerLadders.push(e);
        if (e.rung === 'person') lastAnswerCall = e.callId;
        break;
      }
      case 'answer': {
        const c = calls.get(e.callId);
        const n: Note = {
          tone: e.answer === 'approve' ? 'success' : 'warning',
          text: `${e.answer === 'approve' ? 'Approved' : 'Denied'}${e.by ? ` by ${e.by}` : ''}.`,
          at: e.at,
        };
        c?.notes.push(n);
        lastAnswerCall = e.callId;
        break;
      }
      case 'stopped':
        closeMarker();
        lastStop = e;
        break;
      case 'workspace-restored':
        between.push(`You restored the agent's version of ${e.files.join(', ')}.`);
        break;
      case 'workspace-accepted':
        between.push(`You accepted your edits of ${e.files.join(', ')}; the model was told what changed.`);
        break;
      case 'undone': {
        const lines: string[] = [];
        if (e.restored.length) lines.push(`Put back as before the run: ${e.restored.join(', ')}.`);
        if (e.deleted.length) lines.push(`Deleted (the run created ${e.deleted.length === 1 ? 'it' : 'them'}): ${e.deleted.join(', ')}.`);
        tail.push({ kind: 'history', tone: 'warning', title: "You undid the run's changes", lines, at: e.at });
        break;
      }
      case 'checks':
        checks = { passed: e.passed, total: e.total, failed: e.failed };
        break;
    }
  }
  closeMarker();

  const entries: Entry[] = [];
  placed.sort((a, b) => a.at - b.at); // stable: record order within one place
  let p = 0;
  base.forEach((entry, i) => {
    while (p < placed.length && placed[p].at <= i) entries.push(placed[p++].entry);
    entries.push(entry);
  });
  while (p < placed.length) entries.push(placed[p++].entry);
  // Stopped because files it wrote changed: nothing can be answered until the workspace is settled, so no question is shown as waiting.
  const changedStop = state.phase !== 'done' && lastStop?.how === 'error' && lastStop.code === 'workspace-changed' ? lastStop : undefined;
  if (changedStop) {
    entries.push({
      kind: 'history',
      tone: 'error',
      title: 'Stopped: files the agent wrote have changed',
      lines: [...changedWords(changedStop, state.config.provider), ...between],
      at: changedStop.at,
    });
  } else if (state.phase !== 'done' && lastStop && lastStop.how !== 'done') {
    const lines = [...between];
    if (lastStop.message && lastStop.how === 'error') lines.unshift(lastStop.message);
    const title =
      lastStop.how === 'paused'
        ? 'Paused: waiting for you'
        : lastStop.how === 'cancelled'
          ? lastStop.code === WINDOW_CLOSED
            ? 'Stopped: the window was reloaded or closed; it can be resumed'
            : 'Stopped: cancelled; it can be resumed'
          : `Stopped${lastStop.code ? ` (${lastStop.code})` : ''}`;
    entries.push({ kind: 'history', tone: lastStop.how === 'error' ? 'error' : 'history', title, lines, at: lastStop.at });
  } else if (between.length > 0) {
    entries.push({ kind: 'history', tone: 'history', title: 'Between runs', lines: between });
  }
  if (state.phase === 'done') entries.push({ kind: 'answer', text: state.answer ?? '' });
  entries.push(...tail);

  const notes: string[] = [];
  if (events.length === 0 && state.turns > 0)
    notes.push(
      'This run has no event record (it was started by an older version, or its record was removed): its restarts, ladder decisions and per-turn spend are not shown.',
    );
  else if (state.restarts > restarts)
    notes.push(`${plural(state.restarts - restarts, 'restart')} left no record (the process ended before it could write one).`);
  if (log.skipped > 0)
    notes.push(
      `${plural(log.skipped, 'line')} of the event record could not be read and ${log.skipped === 1 ? 'was' : 'were'} skipped (a crash can cut the last one short).`,
    );

  const issues: Transcript['issues'] = [];
  for (const [id, c] of calls) {
    const r = results.get(id);
    const f = r && filedIssue({ name: c.tool }, r);
    if (!f || issues.some((i) => i.number === f.number)) continue;
    const url = f.url ?? issueUrl(state.config.options, f.number);
    issues.push({ number: f.number, title: f.title, callId: id, ...(url ? { url } : {}) });
  }

  const t: Transcript = {
    runId: state.runId,
    task: state.task,
    phase: state.phase,
    status: changedStop ? 'stopped: files it wrote changed' : phaseWords(state.phase),
    provider: state.config.provider,
    model: state.config.model,
    workspace: state.config.workspace,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    turns: state.turns,
    restarts: state.restarts,
    usage: state.usage,
    entries,
    files: Object.entries(state.files ?? {})
      .map(([path, f]) => ({
        path,
        change: f.before === undefined ? ('unknown' as const) : f.before === ABSENT ? ('created' as const) : ('modified' as const),
        callId: f.callId,
        ...(f.worktree ? { label: `${f.worktree.cause}: ${f.worktree.path}` } : {}),
      }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    pending: (changedStop ? [] : (state.pending ?? [])).map((q) => ({
      kind: q.kind,
      callId: q.callId,
      tool: q.tool,
      title: calls.get(q.callId)?.title ?? q.tool,
      askedAt: q.askedAt,
    })),
    issues,
    notes,
  };
  const causes = causeRows(state, toolCalls, results, ladderByCall, (n) => issueUrl(state.config.options, n));
  if (causes.length > 0) t.causes = causes;
  if (checks) t.checks = checks;
  if (state.answer !== undefined) t.answer = state.answer;
  return t;
}

/**
 * The web page of an issue whose filing result names none (a run of an older version): on
 * GitHub, derived from the repository and the API address the run used; for a tracker service,
 * its issue's address; the embedded tracker has none.
 */
function issueUrl(options: Record<string, string> | undefined, n: number): string | undefined {
  let spec: ReturnType<typeof parseTrackerSpec>;
  try {
    spec = parseTrackerSpec(options?.trackerUrl);
  } catch {
    return undefined;
  }
  if (spec.kind === 'github') {
    try {
      return githubIssueWebUrl(options?.githubApiUrl ?? GITHUB_API_DEFAULT, spec.owner, spec.repo, n);
    } catch {
      return undefined;
    }
  }
  return spec.kind === 'http' ? `${spec.url.replace(/\/+$/, '')}/issues/${n}` : undefined;
}
