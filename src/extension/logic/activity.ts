/**
 * What a running run does now, in words, from the loop's events: "waiting for the model",
 * the call being run as its view titles it ("Patch src/todos.js", "Run the tests"), "waiting for
 * you", "finished". Undefined for an event that does not change it.
 */
import type { LoopEvent } from '../../agent/loop';
import { describeCall } from '../../transcript/calls';

/** Longest activity text (a model's issue title can be long): the status bar and the panel's header stay one line. */
const MAX = 60;

export function activityOf(e: LoopEvent): string | undefined {
  switch (e.type) {
    case 'model-call':
      return 'waiting for the model';
    case 'tool-start':
      return clip(describeCall(e.call).title);
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

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= MAX ? one : `${one.slice(0, MAX - 1)}…`;
}
