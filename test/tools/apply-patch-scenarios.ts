/**
 * Our apply_patch scenario table, in the shape of Codex's apply-patch scenarios: an input tree,
 * a patch, and the tree expected after it (for a refusal: the input tree, unchanged, and the
 * sentence the result must hold). One row per leniency OpenAI's parser has and per refusal that
 * is ours on purpose. Run in process (apply-patch-scenarios.test.ts) and through
 * `triage tool apply_patch` (test/cli/apply-patch-scenarios.test.ts).
 */
export interface Scenario {
  name: string;
  tree: Record<string, string>;
  patch: string;
  /** The whole tree afterwards; omitted for a refusal (the tree stays as it was). */
  after?: Record<string, string>;
  /** The tool's result must match this (for a refusal: its error sentence). */
  result: RegExp;
}

const APP = 'function greet(name) {\n  return "hi " + name;\n}\n';

export const SCENARIOS: Scenario[] = [
  {
    name: 'exact context',
    tree: { 'app.js': APP },
    patch: '*** Begin Patch\n*** Update File: app.js\n function greet(name) {\n-  return "hi " + name;\n+  return "hello " + name;\n }\n*** End Patch',
    after: { 'app.js': APP.replace('hi ', 'hello ') },
    result: /^applied patch: updated app\.js \(\+1 -1\)$/,
  },
  {
    name: 'a hunk of only "+" lines goes at the end of the file',
    tree: { 'app.js': APP },
    patch: '*** Begin Patch\n*** Update File: app.js\n+module.exports = { greet };\n*** End Patch',
    after: { 'app.js': `${APP}module.exports = { greet };\n` },
    result: /change 1 has no context lines, so it went at the end of the file/,
  },
  {
    name: 'a file header with leading whitespace',
    tree: { 'app.js': APP },
    patch: '*** Begin Patch\n  *** Update File: app.js\n-  return "hi " + name;\n+  return "hey " + name;\n*** End Patch',
    after: { 'app.js': APP.replace('hi ', 'hey ') },
    result: /^applied patch: updated app\.js \(\+1 -1\)$/,
  },
  {
    name: "the patch in a heredoc (<<'EOF')",
    tree: { 'app.js': APP },
    patch: '<<\'EOF\'\n*** Begin Patch\n*** Update File: app.js\n-  return "hi " + name;\n+  return "yo " + name;\n*** End Patch\nEOF\n',
    after: { 'app.js': APP.replace('hi ', 'yo ') },
    result: /^applied patch: updated app\.js/,
  },
  {
    name: 'the patch in a heredoc (<<EOF), adding a file',
    tree: {},
    patch: '<<EOF\n*** Begin Patch\n*** Add File: new.txt\n+one\n*** End Patch\nEOF',
    after: { 'new.txt': 'one\n' },
    result: /^applied patch: added new\.txt$/,
  },
  {
    name: 'context differing only in trailing whitespace',
    tree: { 'a.txt': 'one  \ntwo\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n one\n-two\n+2\n*** End Patch',
    // as Codex: the matched lines are replaced by the hunk's, context included
    after: { 'a.txt': 'one\n2\n' },
    result: /change 1 matched ignoring trailing whitespace/,
  },
  {
    name: 'context differing in indentation',
    tree: { 'a.txt': '\tone\ntwo\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n  one\n-two\n+2\n*** End Patch',
    after: { 'a.txt': ' one\n2\n' },
    result: /change 1 matched ignoring leading and trailing whitespace/,
  },
  {
    name: 'context differing only in Unicode punctuation (curly quotes, dashes, no-break space)',
    tree: { 'doc.md': 'It\u2019s \u201Cdone\u201D \u2014 see\u00A0below.\nold\n' },
    patch: '*** Begin Patch\n*** Update File: doc.md\n It\'s "done" - see below.\n-old\n+new\n*** End Patch',
    after: { 'doc.md': 'It\'s "done" - see below.\nnew\n' },
    result: /change 1 matched ignoring whitespace and reading typographic quotes, dashes and spaces as ASCII/,
  },
  {
    name: 'a file without a final line break ends with one',
    tree: { 'a.txt': 'one\ntwo' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n-one\n+1\n*** End Patch',
    after: { 'a.txt': '1\ntwo\n' },
    result: /the file now ends with a line break/,
  },
  {
    name: '"*** End of File" pins a hunk to the end',
    tree: { 'a.txt': 'x\ny\nx\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n-x\n+z\n*** End of File\n*** End Patch',
    after: { 'a.txt': 'x\ny\nz\n' },
    result: /^applied patch: updated a\.txt \(\+1 -1\)$/,
  },
  {
    name: 'refused: Delete File, with the other changes named as not applied',
    tree: { 'a.txt': 'one\n', 'b.txt': 'two\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n-one\n+1\n*** Delete File: b.txt\n*** End Patch',
    result:
      /^apply_patch: Delete File is not allowed here: the run records the files it writes, not deletions \("\*\*\* Delete File: b\.txt"\); nothing was changed, so the patch's other changes \(to a\.txt\) were not applied either\. Send the patch again without the Delete File/,
  },
  {
    name: 'refused: Move to',
    tree: { 'a.txt': 'one\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-one\n+1\n*** End Patch',
    result:
      /^apply_patch: Move to is not allowed here: .*\("\*\*\* Move to: b\.txt"\); nothing was changed\. Send the patch again with "\*\*\* Add File: b\.txt"/,
  },
  {
    name: 'refused: Add File over an existing file',
    tree: { 'a.txt': 'one\n' },
    patch: '*** Begin Patch\n*** Add File: a.txt\n+two\n*** End Patch',
    result:
      /^apply_patch: Add File is not allowed over an existing file: "a\.txt" exists already; nothing was changed\. Change it with "\*\*\* Update File: a\.txt" instead/,
  },
  {
    name: 'refused: all or nothing (a later hunk that does not match leaves the earlier file alone)',
    tree: { 'a.txt': 'one\n', 'b.txt': 'two\n' },
    patch: '*** Begin Patch\n*** Update File: a.txt\n-one\n+1\n*** Update File: b.txt\n-three\n+3\n*** End Patch',
    result:
      /^apply_patch: change 1 of "b\.txt" does not match the file.*\. The patch applies whole or not at all; nothing was changed, so the patch's other changes \(to a\.txt\) were not applied either; send it again whole with this change fixed$/,
  },
];
