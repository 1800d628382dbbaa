/**
 * What a running run does now, in words, from the loop's events: "waiting for the model",
 * "running code_patch", "waiting for you", "finished". Undefined for an
 * event that does not change it.
 */
import type { LoopEvent } from '../../agent/loop';

export function activityOf(e: LoopEvent): string | undefined {
  switch (e.type) {
    case 'model-call':
      return 'waiting for the model';
    case 'tool-start':
      return `running ${e.call.name}`;
    case 'tool-end':
    case 'reply':
      return e.type === 'reply' && e.calls.length === 0 ? 'finished' : 'running tools';
    case 'saved':
      return e.phase === 'paused' ? 'waiting for you' : e.phase === 'done' ? 'finished' : undefined;
    case 'started':
      return e.reask ? 'waiting for you' : e.resumed ? 'resuming' : 'starting';
    default:
      return undefined;
  }
}
