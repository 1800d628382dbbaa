/**
 * `@triage` in the Chat view (pure, no vscode): what a request asks for, the buttons of a
 * question (the very commands the Runs view's Approve and Deny run, so the first answer wins
 * wherever it is given), and the finished run's answer with its issues and links.
 */
import type { RunInfo } from '../../triage/runinfo';

export type ChatIntent = { kind: 'start'; task?: string } | { kind: 'resume'; runId?: string } | { kind: 'status'; runId?: string } | { kind: 'help' };

export const CHAT_COMMANDS = ['start', 'resume', 'status'] as const;

/** `/start [task]`, `/resume [run]`, `/status [run]`; without a command, words that say the same; else help. */
export function chatIntent(command: string | undefined, prompt: string): ChatIntent {
  const words = prompt.trim().split(/\s+/).filter(Boolean);
  let cmd = command;
  if (!cmd && words.length && (CHAT_COMMANDS as readonly string[]).includes(words[0].toLowerCase())) cmd = words.shift()!.toLowerCase();
  const arg = words[0];
  switch (cmd) {
    case 'start':
      return arg ? { kind: 'start', task: arg } : { kind: 'start' };
    case 'resume':
      return arg ? { kind: 'resume', runId: arg } : { kind: 'resume' };
    case 'status':
      return arg ? { kind: 'status', runId: arg } : { kind: 'status' };
    default:
      return { kind: 'help' };
  }
}

export const CHAT_HELP =
  'Durable Triage: `/start [task]` starts (or resumes) a triage run in the open folder, `/resume [run]` resumes one, `/status [run]` shows the runs. ' +
  'Approvals appear here as buttons, the same question the notification asks; whichever you answer first wins.';

export interface ChatQuestion {
  runId: string;
  callId: string;
  tool: string;
  kind: 'approval' | 'ladder';
  title?: string;
}

export interface ChatButton {
  title: string;
  command: string;
  arguments: unknown[];
}

/** The Runs view's question node for the call: what durableTriage.approve / deny / showQuestion take. */
export function questionNode(q: ChatQuestion): unknown {
  return {
    type: 'child',
    row: {
      kind: 'question',
      question: q.kind,
      runId: q.runId,
      callId: q.callId,
      tool: q.tool,
      label: '',
      description: '',
      contextValue: q.kind === 'approval' ? 'question-approval' : 'question-ladder',
    },
  };
}

/** Approve / Deny for an approval; the ladder's question opens its dialog (It Happened needs a note). */
export function questionButtons(q: ChatQuestion): ChatButton[] {
  const node = questionNode(q);
  if (q.kind === 'approval')
    return [
      { title: 'Approve', command: 'durableTriage.approve', arguments: [node] },
      { title: 'Deny', command: 'durableTriage.deny', arguments: [node] },
    ];
  return [{ title: 'Answer…', command: 'durableTriage.showQuestion', arguments: [node] }];
}

export function questionMarkdown(q: ChatQuestion): string {
  return q.kind === 'approval'
    ? `**Approve?** ${q.title ?? q.tool} (run \`${q.runId}\`)`
    : `**Did it happen?** ${q.title ?? q.tool} may or may not have run before the restart (run \`${q.runId}\`)`;
}

export function openRunButton(runId: string): ChatButton {
  return { title: 'Open Run Panel', command: 'durableTriage.openRun', arguments: [runId] };
}

/** The run's end: its phase, its issues (linked where the tracker has pages) and its answer. */
export function resultMarkdown(
  info: Pick<RunInfo, 'runId' | 'phase' | 'turns' | 'dollars'>,
  issues: readonly { number: number; title: string; url?: string }[],
  answer?: string,
): string {
  const lines = [`Run \`${info.runId}\`: ${info.phase ?? 'unknown'} after ${info.turns ?? 0} turns, $${(info.dollars ?? 0).toFixed(4)}.`];
  if (issues.length) {
    lines.push('', 'Issues:');
    for (const i of issues) lines.push(`- ${i.url ? `[#${i.number}](${i.url})` : `#${i.number}`} ${i.title}`);
  } else lines.push('', 'No issues filed.');
  if (answer) lines.push('', answer);
  return lines.join('\n');
}
