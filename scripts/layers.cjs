// The layers of src/: which folder may import which. One table, used twice: eslint.config.mjs
// turns it into the rule `layers/imports` (so `npm run lint` fails on an import that breaks it),
// and test/lint/layers.test.ts checks that docs/architecture.md states exactly the sentences
// `invariants()` makes of it. Change a rule here, then the doc's "Architecture Invariant" line.
//
// A row's `path` is a folder (ending in /) or one file; a file of src/ belongs to the row with the
// longest path that starts it. `may` lists what the row's files may import besides their own
// row: a folder means a file of that row (so `src/store/` is not `src/store/files/`), a file
// means that file. `packages`: the npm packages allowed (absent: any but `vscode`);
// `vscode: true`: may import `vscode`. `src/sweep/` may import anything (`may: '*'`).
// Files outside src/ (test/, bench/, tools/) are not checked: they may import anything.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const CORE = 'src/core/';
const DISK = 'src/disk/';
const STORE = 'src/store/';
const FILES = 'src/store/files/';
const PG = 'src/store/pg/';
const OPEN_STORE = 'src/store/open-store.ts';
const WORKSPACE = 'src/workspace/';
const MODEL = 'src/model/';
const AGENT = 'src/agent/';
const TRACKER = 'src/tracker/';
const RUNNERS = 'src/runners/';
const CRASHES = 'src/crashes/';
const GIT = 'src/git/';
const DEPS = 'src/deps/';
const TOOLS = 'src/tools/';
const MCP = 'src/mcp/';
const TRANSCRIPT = 'src/transcript/';
const TRIAGE = 'src/triage/';
const CLI = 'src/cli/';
const EXTENSION = 'src/extension/';
const WEBVIEW = 'src/webview/';
const SWEEP = 'src/sweep/';

/** Lowest first: each row may import only rows above it in this list (and not all of them). */
const LAYERS = [
  { path: CORE, may: [] },
  { path: DISK, may: [CORE] },
  { path: STORE, may: [CORE, DISK, FILES] },
  { path: FILES, may: [CORE, DISK, STORE] },
  { path: PG, may: [CORE, DISK, STORE, FILES] },
  { path: OPEN_STORE, may: [CORE, DISK, STORE, FILES, PG] },
  { path: WORKSPACE, may: [CORE, DISK, STORE] },
  { path: MODEL, may: [CORE, DISK, STORE] },
  { path: AGENT, may: [CORE, DISK, STORE, WORKSPACE, MODEL] },
  { path: TRACKER, may: [CORE, DISK, STORE] },
  { path: RUNNERS, may: [CORE, DISK, WORKSPACE] },
  { path: CRASHES, may: [CORE, DISK, WORKSPACE] },
  { path: GIT, may: [CORE] },
  { path: DEPS, may: [CORE, RUNNERS] },
  { path: TOOLS, may: [CORE, DISK, STORE, WORKSPACE, AGENT, TRACKER, RUNNERS, GIT] },
  { path: MCP, may: [CORE, STORE, AGENT] },
  { path: TRANSCRIPT, may: [CORE, STORE, OPEN_STORE, AGENT, TRACKER, TOOLS] },
  { path: TRIAGE, may: [CORE, DISK, STORE, OPEN_STORE, WORKSPACE, MODEL, AGENT, TRACKER, RUNNERS, CRASHES, GIT, DEPS, TOOLS, MCP, TRANSCRIPT] },
  { path: CLI, may: [CORE, DISK, STORE, OPEN_STORE, WORKSPACE, MODEL, AGENT, TRACKER, RUNNERS, CRASHES, DEPS, TOOLS, MCP, TRANSCRIPT, TRIAGE] },
  {
    path: EXTENSION,
    may: [CORE, DISK, STORE, OPEN_STORE, WORKSPACE, MODEL, AGENT, TRACKER, RUNNERS, CRASHES, DEPS, TOOLS, MCP, TRANSCRIPT, TRIAGE, 'src/webview/protocol.ts'],
    vscode: true,
  },
  { path: WEBVIEW, may: ['src/core/transcript.ts'], packages: ['zod'] },
  { path: SWEEP, may: '*' },
];

/** The row of a file (a repo-relative path with /), or undefined outside src/. */
function rowOf(file) {
  let best;
  for (const row of LAYERS)
    if (file === row.path || (row.path.endsWith('/') && file.startsWith(row.path))) if (!best || row.path.length > best.path.length) best = row;
  return best;
}

const code = (p) => '`' + p + '`';
const list = (items) => (items.length <= 1 ? items.join('') : items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1]);

/** The sentence a row's rule is written as, in the doc and in lint messages. */
function rowInvariant(row) {
  const who = code(row.path);
  if (row.may === '*') return `${who} may import anything (it is the test harness).`;
  const ours = row.may.length === 0 ? 'nothing of ours' : 'only ' + list(row.may.map(code)) + ' of ours';
  const pkgs = row.packages ? (row.packages.length === 0 ? ', and no package' : ', and of packages only ' + list(row.packages.map(code))) : '';
  return `${who} imports ${ours}${pkgs}.`;
}

/** The rules that follow from the table as a whole (each also checked by the rows themselves). */
function summaryInvariants() {
  const vscodeRows = LAYERS.filter((r) => r.vscode).map((r) => code(r.path));
  const sweepUsers = LAYERS.filter((r) => r.path !== SWEEP && (r.may === '*' || r.may.includes(SWEEP))).map((r) => code(r.path));
  const backendUsers = LAYERS.filter((r) => !r.path.startsWith(STORE) && r.may !== '*' && (r.may.includes(FILES) || r.may.includes(PG))).map((r) =>
    code(r.path),
  );
  const pgUsers = LAYERS.filter((r) => r.path !== PG && r.may !== '*' && r.may.includes(PG)).map((r) => code(r.path));
  const openStoreUsers = LAYERS.filter((r) => r.may !== '*' && r.may.includes(OPEN_STORE)).map((r) => code(r.path));
  return [
    `Only ${list(vscodeRows)} imports ${code('vscode')}.`,
    `No module of src/ outside ${code(SWEEP)} imports ${code(SWEEP)}${sweepUsers.length ? ' but ' + list(sweepUsers) : ''}: only the tests, benchmarks and tools/ use the harness.`,
    `Nothing above ${code(STORE)} imports a backend (${code(FILES)} or ${code(PG)})${backendUsers.length ? ' but ' + list(backendUsers) : ''}; what needs a store by its address opens it with ${code(OPEN_STORE)} (${list(openStoreUsers)}).`,
    `Of ${code(STORE)}, only ${list(pgUsers)} imports ${code(PG)}.`,
  ];
}

/** Every invariant, as the doc must state them (each after "**Architecture Invariant:** "). */
function invariants() {
  return [...summaryInvariants(), ...LAYERS.map(rowInvariant)];
}

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** `./x` -> `dir/x.ts`: the .ts file an import names (a folder's index.ts when it names a folder). */
function targetFile(root, fromFile, spec) {
  let abs = path.resolve(root, path.dirname(fromFile), spec);
  if (abs.endsWith('.js')) abs = abs.slice(0, -3);
  if (!abs.endsWith('.ts')) abs = !fs.existsSync(abs + '.ts') && fs.existsSync(path.join(abs, 'index.ts')) ? path.join(abs, 'index.ts') : abs + '.ts';
  return path.relative(root, abs).split(path.sep).join('/');
}

/**
 * Why `fromFile` (repo-relative) may not import `spec`, or undefined when it may. `root` is the
 * repository's folder (relative imports are resolved against it).
 */
function checkImport(root, fromFile, spec) {
  const row = rowOf(fromFile);
  if (!row) return undefined;
  if (!spec.startsWith('.')) {
    if (spec.startsWith('node:') && !row.packages) return undefined;
    const pkg = packageName(spec);
    if (pkg === 'vscode') return row.vscode ? undefined : { row, target: 'vscode', rule: summaryInvariants()[0] };
    if (row.packages && !row.packages.includes(pkg)) return { row, target: pkg, rule: rowInvariant(row) };
    return undefined;
  }
  const target = targetFile(root, fromFile, spec);
  const targetRow = rowOf(target);
  if (row.may === '*') return undefined;
  if (targetRow === row) return undefined;
  if (!targetRow) return { row, target, rule: rowInvariant(row) };
  if (row.may.includes(target) || row.may.includes(targetRow.path)) return undefined;
  return { row, target, rule: rowInvariant(row) };
}

/**
 * The ESLint plugin: rule `imports` checks every import, export-from, import(), `typeof import()`,
 * `import x = require()` and require() of a file in src/ against the table; a relative one is
 * resolved to a repository path first, so the rule reads the same at every folder depth.
 */
function makePlugin(skipDebts) {
  return {
    rules: {
      imports: {
        meta: { type: 'problem', docs: { description: 'Imports follow the layers of docs/architecture.md' }, schema: [] },
        create(context) {
          const root = path.resolve(__dirname, '..');
          const file = path.relative(root, context.filename).split(path.sep).join('/');
          if (!rowOf(file)) return {};
          const check = (node) => {
            if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
            const broken = checkImport(root, file, node.value);
            if (broken && skipDebts && DEBTS.includes(`${file} -> ${broken.target}`)) return;
            if (broken)
              context.report({
                node,
                message: `${file} may not import '${node.value}' (${broken.target}): ${broken.rule.replaceAll('`', '')} (docs/architecture.md)`,
              });
          };
          return {
            ImportDeclaration: (n) => check(n.source),
            ExportAllDeclaration: (n) => check(n.source),
            ExportNamedDeclaration: (n) => check(n.source),
            ImportExpression: (n) => check(n.source),
            TSImportType: (n) => check(n.argument && n.argument.type === 'TSLiteralType' ? n.argument.literal : n.argument),
            TSExternalModuleReference: (n) => check(n.expression),
            CallExpression: (n) => {
              if (n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments.length === 1) check(n.arguments[0]);
            },
          };
        },
      },
    },
  };
}

/**
 * Imports that break a rule today and are owed a fix (listed in docs/architecture.md under
 * "Debts"): the rule lets exactly these through, and test/lint/layers.test.ts fails when one is
 * fixed (take it off the list) or a new one appears.
 */
const DEBTS = [];

const plugin = makePlugin(true);
const strictPlugin = makePlugin(false);

module.exports = { LAYERS, rowOf, rowInvariant, invariants, checkImport, plugin, strictPlugin, DEBTS };
