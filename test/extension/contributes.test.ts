// The extension's manifest (package.json): the contract's commands, settings and views.
// checked against the shared contract and against the code that implements it.
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSettings } from '../../src/extension/logic/settings';
import { CONFIRMED_SETTINGS, USER_ONLY_SETTINGS } from '../../src/extension/logic/setting-scopes';
import { DEFAULT_LIMITS } from '../../src/agent/budget';

function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'src', 'extension'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
}
const ROOT = repoRoot();

interface Manifest {
  main: string;
  activationEvents: string[];
  capabilities: Record<string, { supported: boolean; description: string }>;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
    configuration: { properties: Record<string, { default: unknown; enum?: string[]; scope?: string }> };
  };
}
const m = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

const CONTRACT: Record<string, string> = {
  'durableTriage.start': 'Start Triage',
  'durableTriage.resume': 'Resume Run',
  'durableTriage.cancel': 'Cancel Run',
  'durableTriage.approve': 'Approve',
  'durableTriage.deny': 'Deny',
  'durableTriage.openCheckpoint': 'Open Checkpoint',
  'durableTriage.deleteRun': 'Delete Run',
  'durableTriage.setApiKey': 'Set API Key',
  'durableTriage.showLog': 'Show Log',
  'durableTriage.refreshRuns': 'Refresh Runs',
};

test('the contract\'s commands, titled exactly, in the "Durable Triage" category', () => {
  for (const [id, title] of Object.entries(CONTRACT)) {
    const c = m.contributes.commands.find((x) => x.command === id);
    assert.ok(c, `${id} is contributed`);
    assert.equal(c.title, title);
    assert.equal(c.category, 'Durable Triage');
  }
});

test('every command the code registers is contributed, and every contributed one is registered', () => {
  const src = fs.readFileSync(path.join(ROOT, 'src', 'extension', 'commands.ts'), 'utf8');
  const registered = [...src.matchAll(/register\('(durableTriage\.[A-Za-z]+)'/g)].map((x) => x[1]).sort();
  assert.deepEqual(registered, m.contributes.commands.map((c) => c.command).sort());
});

test('activation, entry point and capabilities', () => {
  assert.equal(m.main, './dist/extension.js');
  // The Run panel is restored after a reload by its serializer, which needs the extension active for its view type.
  assert.deepEqual(m.activationEvents, ['onStartupFinished', 'onWebviewPanel:durableTriage.run']);
  for (const k of ['untrustedWorkspaces', 'virtualWorkspaces']) {
    assert.equal(m.capabilities[k].supported, false);
    assert.ok(m.capabilities[k].description.length > 40, `${k} says why`);
  }
});

test('the Runs view in its own activity bar container, with a welcome Start Triage button', () => {
  const c = m.contributes.viewsContainers.activitybar.find((x) => x.id === 'durableTriage');
  assert.ok(c);
  assert.equal(c.icon, 'media/triage.svg');
  assert.ok(fs.readFileSync(path.join(ROOT, c.icon), 'utf8').includes('<svg'));
  assert.deepEqual(
    m.contributes.views.durableTriage.map((v) => v.id),
    ['durableTriage.runs'],
  );
  assert.ok(m.contributes.viewsWelcome.some((w) => w.view === 'durableTriage.runs' && w.contents.includes('[Start Triage](command:durableTriage.start)')));
});

test('menus: inline Approve/Deny on pending approvals; Resume, Cancel, Open Checkpoint, Delete Run on runs', () => {
  const declared = new Set(m.contributes.commands.map((c) => c.command));
  for (const items of Object.values(m.contributes.menus)) for (const i of items) assert.ok(declared.has(i.command), `${i.command} in a menu is declared`);
  const item = m.contributes.menus['view/item/context'];
  for (const id of ['durableTriage.approve', 'durableTriage.deny']) {
    assert.ok(
      item.some((i) => i.command === id && i.group?.startsWith('inline') && i.when?.includes('viewItem == question-approval')),
      `${id} inline`,
    );
  }
  const onRun = (id: string, ctx: string): boolean =>
    item.some((i) => {
      if (i.command !== id || i.group?.startsWith('inline')) return false;
      const eq = /viewItem == ([\w-]+)/.exec(i.when ?? '')?.[1];
      const re = /viewItem =~ \/(.+)\//.exec(i.when ?? '')?.[1];
      return eq === ctx || (re !== undefined && new RegExp(re).test(ctx));
    });
  assert.ok(onRun('durableTriage.resume', 'run-resumable'));
  assert.ok(!onRun('durableTriage.resume', 'run-active'));
  assert.ok(onRun('durableTriage.cancel', 'run-active'));
  assert.ok(onRun('durableTriage.openCheckpoint', 'run-done'));
  assert.ok(onRun('durableTriage.deleteRun', 'run-done'));
  assert.ok(!onRun('durableTriage.deleteRun', 'run-active'), 'a running run cannot be deleted from its menu');
  assert.ok(!onRun('durableTriage.deleteRun', 'run-locked'));
});

test("the settings the code reads are exactly the contributed ones, with the contract's defaults", () => {
  const props = m.contributes.configuration.properties;
  const read: string[] = [];
  readSettings((k) => {
    read.push(`durableTriage.${k}`);
    return undefined;
  });
  assert.deepEqual([...new Set(read)].sort(), Object.keys(props).sort());
  assert.equal(props['durableTriage.stateDirectory'].default, '');
  assert.equal(props['durableTriage.maxRestarts'].default, 10);
  assert.equal(props['durableTriage.budget.maxTurns'].default, DEFAULT_LIMITS.maxTurns, 'the Settings UI shows the default the code applies');
  assert.equal(props['durableTriage.budget.maxDollars'].default, DEFAULT_LIMITS.maxDollars);
  assert.deepEqual(
    props['durableTriage.approval.tools'].default,
    ['issue_file', 'pull_request'],
    'opening a pull request waits for a yes, as filing an issue does',
  );
  assert.equal(props['durableTriage.pullRequests.enabled'].default, false);
  assert.equal(props['durableTriage.pullRequests.draft'].default, true);
  assert.deepEqual(props['durableTriage.model.provider'].enum, ['recorded', 'vscode-lm', 'anthropic', 'openai']);
  assert.equal(props['durableTriage.keys'].default, true);
  assert.equal(props['durableTriage.debug.dieAfterTool'].default, '');
  assert.equal((props['durableTriage.debug.dieAfterTool'] as { included?: boolean }).included, false, 'the crash-testing aid is hidden from the Settings UI');
  // The defaults as the code reads them give the same settings as no settings at all.
  const defaults = readSettings((k) => props[`durableTriage.${k}`]?.default);
  assert.deepEqual(defaults.problems, []);
  assert.deepEqual(defaults.settings, readSettings(() => undefined).settings);
});

test('the settings that decide what a run may do cannot be set by a workspace; the test command and tracker can (the code asks first)', () => {
  const props = m.contributes.configuration.properties;
  for (const k of USER_ONLY_SETTINGS) assert.equal(props[`durableTriage.${k}`]?.scope, 'application', `durableTriage.${k} is scoped "application"`);
  for (const k of ['stateDirectory', 'store', 'approval.tools', 'model.baseUrl', 'keys'])
    assert.ok((USER_ONLY_SETTINGS as readonly string[]).includes(k), `${k} is user-only`);
  for (const k of CONFIRMED_SETTINGS) assert.equal(props[`durableTriage.${k}`]?.scope, 'resource', `durableTriage.${k} may come from a folder`);
  // Every setting is either user-only, asked about, or one a workspace may set freely: these, by decision.
  const free = Object.keys(props)
    .map((k) => k.slice('durableTriage.'.length))
    .filter((k) => !(USER_ONLY_SETTINGS as readonly string[]).includes(k) && !(CONFIRMED_SETTINGS as readonly string[]).includes(k))
    .sort();
  assert.deepEqual(free, ['debug.dieAfterTool', 'model.name', 'model.provider']);
});

test('.vscodeignore is an allowlist that lets in what runs', () => {
  const lines = fs
    .readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  assert.equal(lines[0], '**');
  for (const keep of ['!dist/extension.js', '!media/**', '!samples/**', '!package.json', '!README.md']) assert.ok(lines.includes(keep), keep);
  assert.ok(!lines.includes('!dist/**'), 'not all of dist/: an old .vsix or source maps there would be packaged');
});

test('the .vsix holds what the extension runs and nothing else (vsce ls)', () => {
  const r = spawnSync(process.execPath, [require.resolve('@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const outside = files.filter((f) => !f.startsWith('samples/') && !f.startsWith('media/') && !/^docs\/[^/]+\.md$/.test(f));
  // the docs the README links to ship too, so its links work on the installed extension's page
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  assert.deepEqual(files.filter((f) => /^docs\/[^/]+\.md$/.test(f)).sort(), docs.sort());
  assert.deepEqual(outside.sort(), [
    'CHANGELOG.md',
    'LICENSE',
    'README.md',
    'dist/cli.js', // `triage mcp`, which the MCP server definition runs
    'dist/codicons/codicon.css',
    'dist/codicons/codicon.ttf', // the Run panel's icons (a webview does not get the workbench's)
    'dist/extension.js',
    'dist/octokit-client.js',
    'dist/panel.js',
    'dist/sdk-clients.js',
    'docs/review-changes.png',
    'docs/run-panel.png',
    'docs/sentry-pr.png',
    'docs/shared-store.png', // the README's screenshots, shown on the extension's page
    'package.json',
  ]);
  assert.ok(!files.some((f) => /node_modules|\.triage-state|\.map$/.test(f)), files.join(', '));
});
