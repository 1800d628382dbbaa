/**
 * The Language Model Tools' words (pure, no vscode): what each call says while it runs, and the
 * confirmation every call that changes something asks first (start, answer, file); status and
 * transcript are read-only and ask nothing. Also the status text the tool and `@triage` answer with.
 */
import { AGENT_TOOLS, AGENT_TOOL_ARGS, type AgentToolName } from '../../triage/agent-tools';
import type { RunInfo } from '../../triage/runinfo';

export interface Prepared {
  invocationMessage: string;
  /** Asked before the call runs; absent for a read-only tool. */
  confirmation?: { title: string; message: string };
}

/** What the editor shows before and while a tool runs. Input it cannot read is left to invoke, which refuses it. */
export function prepareTool(name: AgentToolName, input: unknown): Prepared {
  const spec = AGENT_TOOLS[name];
  const confirm = (message: string): Prepared['confirmation'] => ({ title: spec.title, message });
  switch (name) {
    case 'triage_status': {
      const a = AGENT_TOOL_ARGS.triage_status.safeParse(input);
      return { invocationMessage: a.success && a.data.run ? `Reading the status of run ${a.data.run}` : 'Reading the status of the runs' };
    }
    case 'triage_transcript': {
      const a = AGENT_TOOL_ARGS.triage_transcript.safeParse(input);
      return { invocationMessage: a.success ? `Reading the transcript of run ${a.data.run}` : 'Reading a transcript' };
    }
    case 'triage_start': {
      const a = AGENT_TOOL_ARGS.triage_start.safeParse(input);
      if (!a.success) return { invocationMessage: 'Starting a triage run', confirmation: confirm('Start a Durable Triage run?') };
      const d = a.data;
      const what = d.run
        ? `Resume run ${d.run}?`
        : `${d.new ? 'Start a new' : 'Start (or resume)'} Durable Triage run of ${d.task ?? 'a task'}${d.workspace ? ` in ${d.workspace}` : ' in the open folder'}` +
          `${d.crashes ? `, crash reports in ${d.crashes}` : ''}${d.tracker ? `, issues to ${d.tracker}` : ''}? The agent calls a model, may change files in the workspace (undoable) and asks before filing issues.`;
      return { invocationMessage: d.run ? `Resuming run ${d.run}` : `Starting a triage run of ${d.task ?? 'a task'}`, confirmation: confirm(what) };
    }
    case 'triage_answer': {
      const a = AGENT_TOOL_ARGS.triage_answer.safeParse(input);
      if (!a.success) return { invocationMessage: "Answering a run's question", confirmation: confirm("Answer a run's question?") };
      const verb = { approve: 'Approve', deny: 'Deny', rerun: 'Run again', done: 'Mark as happened' }[a.data.answer];
      return {
        invocationMessage: `${verb}: call ${a.data.call} of run ${a.data.run}`,
        confirmation: confirm(`${verb} call ${a.data.call} of run ${a.data.run}? The first answer wins; the run goes on with it.`),
      };
    }
    case 'triage_file_issue': {
      const a = AGENT_TOOL_ARGS.triage_file_issue.safeParse(input);
      if (!a.success) return { invocationMessage: 'Filing an issue', confirmation: confirm('File an issue?') };
      return {
        invocationMessage: `Filing issue: ${a.data.title}`,
        confirmation: confirm(
          `File "${a.data.title}" (cause ${a.data.cause}) in ${a.data.tracker ?? 'the embedded tracker'}? The same issue asked again is filed once.`,
        ),
      };
    }
  }
}

/** The runs as markdown lines: phase, turns, cost, what it does now, and its questions (each with its call ID, for triage_answer). */
export function statusMarkdown(runs: readonly RunInfo[], doing: (runId: string) => string | undefined = () => undefined): string {
  if (runs.length === 0) return 'No runs yet.';
  const lines: string[] = [];
  for (const r of runs) {
    if (r.error) {
      lines.push(`- \`${r.runId}\`: unreadable (${r.error})`);
      continue;
    }
    const now = doing(r.runId);
    lines.push(`- \`${r.runId}\` ${r.task}: ${r.phase}, turn ${r.turns}, $${(r.dollars ?? 0).toFixed(4)}, restarts ${r.restarts}${now ? `; now: ${now}` : ''}`);
    for (const p of r.pending) lines.push(`  - waiting on a person: ${p.kind} for ${p.title} (call \`${p.callId}\`)`);
    for (const m of r.unresolved) lines.push(`  - attempt marker: ${m.tool} (call \`${m.callId}\`), resolved on resume`);
  }
  return lines.join('\n');
}
