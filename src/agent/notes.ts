/**
 * What the model is told about events outside its conversation, before its next call: a reply
 * of its own that the token limit cut, and files it wrote that a person changed and accepted.
 * The loop and the repairs put these on the run's inbox; the loop sends them as one user message.
 */
import { createTwoFilesPatch } from 'diff';
import type { AcceptedFile } from '../workspace/ledger';

/** A reply the model's output token limit cut. */
export function cutNote(stopReason: string): string {
  return (
    `Your previous reply was cut off at the output token limit (stop reason ${stopReason}) before you finished. ` +
    'Continue from where it stopped, in shorter steps; a tool call whose arguments were cut off did not run.'
  );
}

/** Files the run wrote, changed outside it and accepted by a person: a unified diff each (the agent's version -> current). */
export function acceptedFilesNote(files: readonly AcceptedFile[]): string {
  const parts = files.map((f) => {
    const name = f.cause === undefined ? f.path : `${f.path} (cause ${f.cause}'s worktree)`;
    if (f.now === null) return `${name}: deleted.`;
    if (f.agentVersion === undefined) return `${name}: changed (your version is not in the content store, so no diff); it is now:\n${f.now}`;
    const patch = createTwoFilesPatch(`a/${f.path}`, `b/${f.path}`, f.agentVersion, f.now, 'your version', 'current');
    return f.cause === undefined ? patch : `In cause ${f.cause}'s worktree:\n${patch}`;
  });
  return (
    'Files you wrote earlier in this run were changed outside the run, and the person accepted the changes. ' +
    'Your earlier view of these files is out of date; work from the current versions:\n\n' +
    parts.join('\n')
  );
}
