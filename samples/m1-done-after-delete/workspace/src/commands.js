'use strict';

const { UsageError } = require('./errors');
const { TodoList } = require('./todos');
const { History } = require('./history');
const { formatDue } = require('./dates');

/** Splits "add Buy milk --due tomorrow" into the command, its words and its options. */
function parseLine(line) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const [name = '', ...rest] = words;
  const args = [];
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    if (rest[i].startsWith('--')) options[rest[i].slice(2)] = rest[++i] ?? '';
    else args.push(rest[i]);
  }
  return { name: name.toLowerCase(), args, options };
}

function describe(item) {
  return `#${item.id} ${item.title}${item.due ? ` (due ${formatDue(item.due)})` : ''}`;
}

/** Runs one command line against the session; returns what to print. */
function execute(session, line) {
  const { list, history } = session;
  const { name, args, options } = parseLine(line);
  switch (name) {
    case '':
      return '';
    case 'add': {
      const item = list.add(args.join(' '), { due: options.due, now: session.now });
      history.record(`add #${item.id}`, () => list.remove(item.id));
      return `added ${describe(item)}`;
    }
    case 'done': {
      const id = args[0];
      const was = list.markDone(id);
      history.record(`done #${id}`, () => (was ? undefined : list.reopen(id)));
      return `done ${describe(list.find(id))}`;
    }
    case 'reopen': {
      const id = args[0];
      const was = list.reopen(id);
      history.record(`reopen #${id}`, () => (was ? list.markDone(id) : undefined));
      return `reopened ${describe(list.find(id))}`;
    }
    case 'rename': {
      const [id, ...title] = args;
      const before = list.rename(id, title.join(' '));
      history.record(`rename #${id}`, () => list.rename(id, before));
      return `renamed ${describe(list.find(id))}`;
    }
    case 'delete': {
      const item = list.remove(args[0]);
      history.record(`delete #${item.id}`, () => list.restore(item));
      return `deleted ${describe(item)}`;
    }
    case 'undo': {
      const label = history.undo();
      return label === null ? 'nothing to undo' : `undid ${label}`;
    }
    case 'list': {
      const items = list.list({ open: 'open' in options });
      if (items.length === 0) return 'nothing to do';
      return items.map((i) => `[${i.done ? 'x' : ' '}] ${describe(i)}`).join('\n');
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

function newSession(now = new Date()) {
  return { list: new TodoList(), history: new History(), now };
}

/** Runs every line; a UsageError is reported and the session goes on. */
function runSession(lines, session = newSession(), print = console.log) {
  for (const line of lines) {
    try {
      const out = execute(session, line);
      if (out) print(out);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      print(`todo: ${e.message}`);
    }
  }
  return session;
}

module.exports = { parseLine, execute, newSession, runSession };
