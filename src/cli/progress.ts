/**
 * One readable line per loop event, for the CLI's stderr.
 */
import type { LoopEvent } from '../agent/loop';

export function describeEvent(e: LoopEvent): string | undefined {
  switch (e.type) {
    case 'saved':
      return undefined;
    case 'model-call':
      return `turn ${e.turn + 1}: asking the model`;
    case 'reply':
      return `turn ${e.turn + 1}: ${e.calls.length ? e.calls.map((c) => c.name).join(', ') : 'final answer'} (total $${e.total.dollars.toFixed(4)})`;
    case 'tool-start':
      return undefined;
    case 'tool-progress':
      return `  ${e.call.name}: ${e.text}`;
    case 'tool-end':
      return `  ${e.call.name} ${e.result.isError ? 'error' : 'ok'}: ${firstLine(e.result.content)}`;
    case 'ladder':
      return `  ladder for ${e.call.name} (${e.call.id}): ${e.step} -> ${e.outcome}`;
    case 'approval':
      return `  ${e.call.name}: ${e.answer}`;
    case 'workspace-verified':
      return `workspace checked${e.after === 'question' ? ' again after the answer' : ''}: ${e.files} file(s) the run wrote are as it left them`;
    case 'started':
      return e.reask ? 'reopened to ask the saved question again (not counted as a restart)' : undefined;
  }
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 100 ? l.slice(0, 97) + '...' : l;
}
