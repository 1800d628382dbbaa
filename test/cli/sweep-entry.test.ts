/**
 * `triage sweep` reaches the crash harness without the CLI importing it (issue 19): bin/triage.js
 * loads the harness's own entry (dist/sweep.js beside the bundle, else out/src/sweep/cli.js) for
 * `sweep` and the CLI for every other command. The dispatch is tried on a copy of the launcher
 * beside stand-in builds; the real entry is run on bad input (the full sweep takes minutes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN, triage } from './support';
import { tempDir } from '../support/temp-dir';
import { main } from '../../src/cli/main';

function standIn(name: string): string {
  return `exports.main = async (args) => { process.stdout.write('${name} ' + args.join(' ') + '\\n'); return 0; };\n`;
}

test('bin/triage.js runs dist/sweep.js for `sweep` (its arguments after the word) and dist/cli.js for the rest', (t) => {
  const root = tempDir(t, 'triage-sweep-entry-');
  fs.mkdirSync(path.join(root, 'bin'));
  fs.mkdirSync(path.join(root, 'dist'));
  fs.copyFileSync(BIN, path.join(root, 'bin', 'triage.js'));
  fs.writeFileSync(path.join(root, 'dist', 'cli.js'), standIn('cli'));
  fs.writeFileSync(path.join(root, 'dist', 'sweep.js'), standIn('sweep'));
  const run = (args: string[]): string => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin', 'triage.js'), ...args], { encoding: 'utf8', cwd: root });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  assert.equal(run(['sweep', '--kill', '--json']), 'sweep --kill --json\n');
  assert.equal(run(['tasks', 'sweep']), 'cli tasks sweep\n');
});

test('the real `triage sweep` entry parses its flags: bad input exits 2 with the message, before any sweep runs', () => {
  const notUrl = triage(['sweep', '--pg', 'not-a-url']);
  assert.equal(notUrl.status, 2, notUrl.stderr);
  assert.match(notUrl.stderr, /^triage: --pg needs a postgres:\/\/ URL \(an empty database the sweep may fill\), not "not-a-url"\./);
  assert.equal(notUrl.stdout, '');
  const unknown = triage(['sweep', '--no-such-flag']);
  assert.equal(unknown.status, 2, unknown.stderr);
  assert.match(unknown.stderr, /no-such-flag/);
  assert.match(unknown.stderr, /triage sweep \[--kill\] \[--power-loss\] \[--json\]/, 'the usage, which still lists sweep');
  assert.match(unknown.stderr, /triage sweep --mcp \[--json\]/, 'and the MCP sweep');
  const mixed = triage(['sweep', '--mcp', '--kill']);
  assert.equal(mixed.status, 2, mixed.stderr);
  assert.match(mixed.stderr, /^triage: --mcp is a sweep of its own/);
  assert.equal(mixed.stdout, '');
});

test("the CLI's own main does not run the sweep: it names the launcher that does (exit 2)", async (t) => {
  const written: string[] = [];
  t.mock.method(process.stderr, 'write', (s: string) => (written.push(s), true));
  assert.equal(await main(['sweep']), 2);
  t.mock.restoreAll();
  assert.match(written.join(''), /bin\/triage\.js sweep/);
});
