/**
 * One line in the "Durable Triage" log per loop event (every event is logged at info level,
 * saves too, so the log tells exactly where a run was when it stopped). Tool arguments and results
 * are clipped; API keys never reach the loop, so they cannot reach the log.
 */
import type { LoopEvent } from '../../agent/loop';
import { formatDollars } from './texts';

export type LogLevel = 'info' | 'warn';

function clip(s: string, n = 160): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 3)}...` : one;
}

export function eventLine(runId: string, e: LoopEvent): { level: LogLevel; text: string } {
  const at = `[${runId}]`;
  switch (e.type) {
    case 'saved':
      return { level: 'info', text: `${at} saved at ${e.point} (phase ${e.phase})` };
    case 'model-call':
      return { level: 'info', text: `${at} turn ${e.turn + 1}: asking the model` };
    case 'reply': {
      const what = e.calls.length ? e.calls.map((c) => `${c.name} (${c.id})`).join(', ') : 'final answer';
      const tokens = `${e.usage.inputTokens} in / ${e.usage.outputTokens} out`;
      return {
        level: 'info',
        text: `${at} turn ${e.turn + 1}: ${what}; ${tokens}, ${formatDollars(e.usage.dollars)} (run total ${formatDollars(e.total.dollars)})`,
      };
    }
    case 'tool-start':
      return { level: 'info', text: `${at} ${e.call.name} (${e.call.id}) ${clip(e.call.args)}` };
    case 'tool-end':
      return {
        level: e.result.isError ? 'warn' : 'info',
        text: `${at} ${e.call.name} (${e.call.id}) ${e.result.isError ? 'error' : 'ok'}: ${clip(e.result.content)}`,
      };
    case 'tool-progress':
      return { level: 'info', text: `${at} ${e.call.name} (${e.call.id}): ${e.text}` };
    case 'ladder':
      return { level: 'info', text: `${at} ladder for ${e.call.name} (${e.call.id}): ${e.step} -> ${e.outcome}` };
    case 'approval':
      return { level: 'info', text: `${at} ${e.call.name} (${e.call.id}): ${e.answer}${e.by ? ` (${e.by})` : ''}` };
    case 'workspace-verified':
      return {
        level: 'info',
        text: `${at} workspace checked${e.after === 'question' ? ' again after the answer' : ''}: ${e.files} file(s) the run wrote are as it left them`,
      };
    case 'started':
      return {
        level: 'info',
        text: `${at} ${!e.resumed ? 'started' : e.reask ? 'reopened to ask the saved question again (not counted as a restart)' : `resumed (restart ${e.restarts})`} at turn ${e.turn}, phase ${e.phase}`,
      };
    default:
      return { level: 'info', text: `${at} ${clip(JSON.stringify(e))}` };
  }
}

/** The turn and spend to show after an event, or undefined when it changes neither. */
export function progressOf(e: LoopEvent): { turn: number; dollars?: number } | undefined {
  if (e.type === 'model-call') return { turn: e.turn + 1 };
  if (e.type === 'reply') return { turn: e.turn + 1, dollars: e.total.dollars };
  return undefined;
}
