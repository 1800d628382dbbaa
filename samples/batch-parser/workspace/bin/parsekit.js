#!/usr/bin/env node
'use strict';

// parsekit KIND [ARG]: reads the input on stdin, prints the result as JSON.
const fs = require('node:fs');
const kit = require('../src');

const [kind, arg] = process.argv.slice(2);
const input = fs.readFileSync(0, 'utf8');

const kinds = {
  csv: () => kit.parseCsv(input),
  ini: () => kit.parseIni(input),
  duration: () => input.split('\n').filter(Boolean).map((l) => kit.parseDuration(l)),
  query: () => kit.parseQuery(input.trim()),
  version: () => input.split('\n').filter(Boolean).map((l) => kit.parseVersion(l)),
  'max-version': () => kit.maxVersion(input.split('\n').filter(Boolean)),
  template: () => kit.render(input, JSON.parse(arg ?? '{}')),
};

if (!kinds[kind]) {
  process.stderr.write(`parsekit: unknown kind "${kind}"; one of ${Object.keys(kinds).join(', ')}\n`);
  process.exit(2);
}
try {
  process.stdout.write(JSON.stringify(kinds[kind](), null, 2) + '\n');
} catch (e) {
  // Input the parsers cannot read is the caller's mistake (a SyntaxError); anything else is a bug.
  if (!(e instanceof SyntaxError)) throw e;
  process.stderr.write(`parsekit: ${e.message}\n`);
  process.exitCode = 2;
}
