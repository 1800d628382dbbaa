/** The main task (the demo's, the chapter's name): a todo CLI with three crash groups. */
import type { TaskDefinition } from './definition';

export const doneAfterDelete: TaskDefinition = {
  name: 'm1-done-after-delete',
  main: true,
  description: 'A todo-list CLI that crashes when an item is marked done after it was deleted, on undo with nothing to undo, and on a due date it cannot read.',
  framing: 'Users of todo-cli (this repository) sent in crash reports.',
  groups: [
    {
      cause: 'done-after-delete',
      summary: 'TodoList.markDone dereferences a deleted item instead of reporting "no todo #N"',
      file: 'src/todos.js',
    },
    {
      cause: 'undo-empty-history',
      summary: 'History.undo crashes when there is nothing to undo instead of returning null',
      file: 'src/history.js',
    },
    {
      cause: 'invalid-due-date',
      summary: 'parseDue accepts text that is not a date, and formatting the Invalid Date throws',
      file: 'src/dates.js',
    },
  ],
};
