/**
 * The main task's conversation: three crash groups in the todo CLI. The first code_patch
 * is the 8th reply, so a run killed right after it (`--die-after code_patch`) has
 * turns = 8, as in the chapter.
 */
import type { ScriptBuilder } from '../script';

const TEST_DONE = `'use strict';

// Regression test for crashes/done-after-delete/: "done N" after N was deleted (or its
// add was undone) crashed the session in TodoList.markDone.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { TodoList } = require('../src/todos');
const { runSession, newSession } = require('../src/commands');

test('markDone of a deleted item is a usage error, not a crash', () => {
  const list = new TodoList();
  const item = list.add('Buy milk');
  list.remove(item.id);
  assert.throws(() => list.markDone(item.id), { name: 'UsageError', message: 'no todo #1' });
});

test('the session from the crash report goes on after "done" of a deleted item', () => {
  const out = [];
  runSession(['add Buy milk', 'add Call mom', 'delete 1', 'done 1', 'list'], newSession(), (s) => out.push(s));
  assert.deepEqual(out.slice(3), ['todo: no todo #1', '[ ] #2 Call mom']);
});

test('done after the add was undone is a usage error too', () => {
  const out = [];
  runSession(['add Rotate the staging keys', 'undo', 'done 1'], newSession(), (s) => out.push(s));
  assert.equal(out[2], 'todo: no todo #1');
});
`;

const TEST_UNDO = `'use strict';

// Regression test for crashes/undo-empty-history/: undo with nothing to undo crashed in
// History.undo; the caller (commands.js) already expects null and prints "nothing to undo".
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { History } = require('../src/history');
const { runSession, newSession } = require('../src/commands');

test('undo with an empty history returns null', () => {
  assert.equal(new History().undo(), null);
});

test('one undo too many says "nothing to undo"', () => {
  const out = [];
  runSession(['add Pay rent', 'undo', 'undo'], newSession(), (s) => out.push(s));
  assert.deepEqual(out, ['added #1 Pay rent', 'undid add #1', 'nothing to undo']);
});
`;

const TEST_DUE = `'use strict';

// Regression test for crashes/invalid-due-date/: a due date that is not a date became an
// Invalid Date, and formatting it threw "RangeError: Invalid time value".
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseDue } = require('../src/dates');
const { runSession, newSession } = require('../src/commands');

for (const text of ['next', '31/03/2025', '2025-13-01', '2025-02-30']) {
  test(\`parseDue refuses "\${text}" with a usage error\`, () => {
    assert.throws(() => parseDue(text), { name: 'UsageError' });
  });
}

test('a bad due date is reported and the session goes on', () => {
  const out = [];
  runSession(['add Pay rent --due next friday', 'add Dentist --due 2025-03-14'], newSession(), (s) => out.push(s));
  assert.deepEqual(out, ['todo: cannot read the due date "next": use YYYY-MM-DD, today or tomorrow', 'added #1 Dentist (due 2025-03-14)']);
});
`;

export function mainScript(b: ScriptBuilder): void {
  const done = b.reports('done-after-delete');
  const undo = b.reports('undo-empty-history');
  const due = b.reports('invalid-due-date');
  const at = (r: string): string => b.topFrame(r);

  b.say("I'll start with the layout of the repository and the crash reports.", b.listFiles());
  b.say(
    "Three crash folders: done-after-delete, undo-empty-history and invalid-due-date. I'll take them in that order, starting with two of the done-after-delete reports.",
    b.read(done[0]),
    b.read(done[2]),
  );
  b.say(
    `Both traces end in TodoList.markDone (${at(done[0])}): the item is undefined because it was deleted before "done". Let me read the list and the command layer.`,
    b.readLines('src/todos.js', b.lineOf('src/todos.js', '  find(id) {') - 1, b.lineOf('src/todos.js', '  rename(id, title) {') + 7),
    b.readLines('src/commands.js', b.lineOf('src/commands.js', '/** Runs one command line'), b.lineOf('src/commands.js', 'return session;') + 1),
  );
  b.say(
    'markDone reads this.items directly, while reopen, rename and remove go through find(), which throws a UsageError ("no todo #N") that runSession reports without ending the session. Let me check nothing else calls markDone in a way that relies on it.',
    b.search('markDone', { glob: '*.js' }),
  );
  b.say(
    'Besides the tests, only commands.js calls it: the done command, and the undo of a reopen. Before changing anything, the current suite:',
    b.runTests(undefined, true),
  );
  b.say(
    'The suite passes. Now a regression test that reproduces the reports: done after delete, and done after the add was undone.',
    b.write('test/regression-done-after-delete.test.js', TEST_DONE),
  );
  b.say('Let me run it to see it fail on the current code.', b.runTests(['test/regression-done-after-delete.test.js'], false));
  b.say(
    'It fails with the TypeError from the reports. The fix: markDone uses find() like the other methods.',
    b.patch('src/todos.js', [['  markDone(id) {\n    const item = this.items.get(Number(id));', '  markDone(id) {\n    const item = this.find(id);']]),
  );
  b.say('Now the whole suite, with the new test.', b.runTests(undefined, true));
  b.say('Everything passes. Before filing, let me make sure this cause is not filed already.', b.lookup({ cause: 'done-after-delete' }));
  b.say(
    'Not filed yet. Filing it.',
    b.fileIssue(
      '"done N" crashes the session when item N was deleted',
      [
        'Marking an item done after it was deleted (or after its add was undone) ended the whole session with a stack trace:',
        '',
        `    ${b.errorLine(done[0])}`,
        `        at TodoList.markDone (${at(done[0])})`,
        '',
        `Crash reports: ${done.join(', ')}.`,
        '',
        'Cause: markDone looked the item up in this.items directly instead of through find(), which every other command uses and which reports a missing id as a UsageError ("no todo #N").',
        '',
        'Fixed: markDone now uses find(), so the session prints "todo: no todo #N" and goes on. Regression test: test/regression-done-after-delete.test.js.',
      ].join('\n'),
      'done-after-delete',
      1,
    ),
  );

  b.say(
    'Filed as #1. Next, undo-empty-history; its reports have the same layout, so only down to the stack trace.',
    b.readReport(undo[0]),
    b.readReport(undo[1]),
  );
  b.say(
    `Both end in History.undo (${at(undo[0])}): an undo with an empty history.`,
    b.readLines('src/history.js', b.lineOf('src/history.js', '/** Reverts the last change'), b.lineOf('src/history.js', 'return entry.label;') + 1),
  );
  b.say(
    'undo() is documented to return null when there is nothing to undo, and commands.js already prints "nothing to undo" for null, but it calls revert() on the undefined entry first. A regression test:',
    b.write('test/regression-undo-empty-history.test.js', TEST_UNDO),
  );
  b.say('Run it against the current code.', b.runTests(['test/regression-undo-empty-history.test.js'], false));
  b.say(
    'It fails as expected. The fix returns null for an empty history.',
    b.patch('src/history.js', [
      [
        '    const entry = this.entries.pop();\n    entry.revert();',
        '    const entry = this.entries.pop();\n    if (!entry) return null;\n    entry.revert();',
      ],
    ]),
  );
  b.say('The whole suite again.', b.runTests(undefined, true));
  b.say(
    'All green. Filing it.',
    b.fileIssue(
      'undo with nothing to undo crashes the session',
      [
        'An undo in a fresh session, or one undo more than there are changes, crashed:',
        '',
        `    ${b.errorLine(undo[0])}`,
        `        at History.undo (${at(undo[0])})`,
        '',
        `Crash reports: ${undo.join(', ')}.`,
        '',
        'Cause: History.undo popped the empty stack and called revert() on undefined, although it is documented to return null there and commands.js already handles null ("nothing to undo").',
        '',
        'Fixed: undo returns null when the history is empty. Regression test: test/regression-undo-empty-history.test.js.',
      ].join('\n'),
      'undo-empty-history',
      2,
    ),
  );

  b.say('Filed as #2. Last, invalid-due-date: three reports.', b.readReport(due[0]), b.readReport(due[1]), b.readReport(due[2]));
  b.say(
    `All three are "RangeError: Invalid time value" in formatDue (${at(due[0])}) for due dates "next", "31/03/2025" and "2025-13-01". The bad value comes from parseDue; let me read it.`,
    b.readLines('src/dates.js', 1, b.lineOf('src/dates.js', 'function formatDue(date) {') + 2),
  );
  b.say(
    'parseDue turns any text into new Date(`${s}T00:00:00Z`), so text that is not a date becomes an Invalid Date and only blows up later, when it is formatted. A day that does not exist, like 2025-02-30, silently rolls over to March. A regression test:',
    b.write('test/regression-invalid-due-date.test.js', TEST_DUE),
  );
  b.say('Run it to see it fail.', b.runTests(['test/regression-invalid-due-date.test.js'], false));
  b.say(
    'It fails. The fix: parseDue accepts only YYYY-MM-DD days that exist (besides today and tomorrow) and throws a UsageError otherwise, so the add is refused with a message.',
    b.patch('src/dates.js', [
      ["'use strict';\n\nconst DAY_MS", "'use strict';\n\nconst { UsageError } = require('./errors');\n\nconst DAY_MS"],
      [
        '  return new Date(`${s}T00:00:00Z`);\n}',
        '  const date = new Date(`${s}T00:00:00Z`);\n  if (!/^\\d{4}-\\d{2}-\\d{2}$/.test(s) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== s) {\n    throw new UsageError(`cannot read the due date "${text}": use YYYY-MM-DD, today or tomorrow`);\n  }\n  return date;\n}',
      ],
    ]),
  );
  b.say('And the whole suite.', b.runTests(undefined, true));
  b.say(
    'Everything passes. Filing the last one.',
    b.fileIssue(
      'a due date that is not a date crashes add with "Invalid time value"',
      [
        'add with a due date parseDue cannot read ("next friday", "31/03/2025", "2025-13-01") crashed when the new item was printed:',
        '',
        `    ${b.errorLine(due[0])}`,
        '        at Date.toISOString (<anonymous>)',
        `        at formatDue (${at(due[0])})`,
        '',
        `Crash reports: ${due.join(', ')}.`,
        '',
        'Cause: parseDue built new Date(`${s}T00:00:00Z`) from any text, so it returned an Invalid Date (and rolled days that do not exist, such as 2025-02-30, over into the next month) instead of refusing the input.',
        '',
        'Fixed: parseDue accepts today, tomorrow and real YYYY-MM-DD days, and throws a UsageError otherwise ("cannot read the due date ..."), which the session reports and goes on. Regression test: test/regression-invalid-due-date.test.js.',
      ].join('\n'),
      'invalid-due-date',
      3,
    ),
  );
  b.answer(
    [
      'All three crash groups are fixed, each with a regression test that failed before the fix, and the whole suite passes.',
      '',
      '- #1 done-after-delete: "done N" after N was deleted crashed in TodoList.markDone; it now goes through find() and reports "no todo #N" (src/todos.js).',
      '- #2 undo-empty-history: undo with nothing to undo crashed in History.undo; it now returns null, which the session reports as "nothing to undo" (src/history.js).',
      '- #3 invalid-due-date: parseDue turned unreadable dates into an Invalid Date that crashed when printed; it now refuses them with a usage error (src/dates.js).',
    ].join('\n'),
  );
}
