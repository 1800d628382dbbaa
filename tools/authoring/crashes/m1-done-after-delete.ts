/** Crash reports of the main task's todo CLI: three causes, sent in by different users. */
import type { CrashScenario, CrashSet } from '../crash-reports';

const todo = (s: Omit<CrashScenario, 'argv' | 'shown'>): CrashScenario => ({ argv: ['bin/todo.js'], shown: 'todo < session.txt', ...s });

export const doneAfterDelete: CrashSet = {
  task: 'm1-done-after-delete',
  app: 'todo-cli 1.4.2',
  scenarios: [
    todo({
      group: 'done-after-delete',
      file: '2025-03-03-ana-laptop.txt',
      stdin: 'add Buy milk\nadd Call mom\ndelete 1\ndone 1\n',
      installRoot: '/usr/local/lib/node_modules/todo-cli',
      time: '2025-03-03T08:14:52.118Z',
      host: 'ana-laptop',
      note: 'I deleted the milk item by mistake and then tried to tick it off.\nThe whole session died and I lost what I had typed.',
    }),
    todo({
      group: 'done-after-delete',
      file: '2025-03-05-build-07.txt',
      stdin: 'add Rotate the staging keys\nundo\ndone 1\n',
      installRoot: '/home/ci/.npm-global/lib/node_modules/todo-cli',
      time: '2025-03-05T17:40:09.731Z',
      host: 'build-07',
      note: 'Our release checklist script crashes when a step was added and undone.',
    }),
    todo({
      group: 'done-after-delete',
      file: '2025-03-09-marek-desktop.txt',
      stdin: 'add Write the report --due 2025-03-12\nadd Email Sam\nlist\ndelete 2\nlist --open\ndone 2\n',
      installRoot: '/usr/lib/node_modules/todo-cli',
      time: '2025-03-09T11:02:37.402Z',
      host: 'marek-desktop',
      note: 'Crash after marking #2 done. #2 was deleted two commands earlier, so an error\nmessage would be fine, but not a stack trace.',
    }),
    todo({
      group: 'undo-empty-history',
      file: '2025-03-04-ana-laptop.txt',
      stdin: 'undo\n',
      installRoot: '/usr/local/lib/node_modules/todo-cli',
      time: '2025-03-04T07:55:13.640Z',
      host: 'ana-laptop',
      note: 'Typed undo first thing in a new session.',
    }),
    todo({
      group: 'undo-empty-history',
      file: '2025-03-06-li-mbp.txt',
      stdin: 'add Pay rent\nundo\nundo\n',
      installRoot: '/opt/homebrew/lib/node_modules/todo-cli',
      time: '2025-03-06T21:17:48.022Z',
      host: 'li-mbp',
      note: 'Pressed undo one time too many.',
    }),
    todo({
      group: 'invalid-due-date',
      file: '2025-03-02-li-mbp.txt',
      stdin: 'add Pay rent --due next friday\n',
      installRoot: '/opt/homebrew/lib/node_modules/todo-cli',
      time: '2025-03-02T19:03:26.915Z',
      host: 'li-mbp',
      note: 'I guess "next friday" is not supported, but it should say so instead of crashing.',
    }),
    todo({
      group: 'invalid-due-date',
      file: '2025-03-07-marek-desktop.txt',
      stdin: 'add Dentist --due 31/03/2025\n',
      installRoot: '/usr/lib/node_modules/todo-cli',
      time: '2025-03-07T09:48:00.257Z',
      host: 'marek-desktop',
      note: 'European date format crashes the tool.',
    }),
    todo({
      group: 'invalid-due-date',
      file: '2025-03-10-build-07.txt',
      stdin: 'add Renew the passport --due 2025-13-01\nlist\n',
      installRoot: '/home/ci/.npm-global/lib/node_modules/todo-cli',
      time: '2025-03-10T06:30:51.880Z',
      host: 'build-07',
      note: 'A typo in the month (13) took down the nightly reminder job.',
    }),
  ],
};
