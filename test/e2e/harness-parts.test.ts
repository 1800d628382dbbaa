// The harness's own parts that need no editor: waits, code-server output parsing, the
// /proc process tree, workspace settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLIENT_DISCONNECTED, launchedExtensionHosts } from './code-server';
import { descendants, extensionHostPids, isAlive } from './proc';
import { waitFor, WaitAbortedError } from './wait';
import { readWorkspaceSettings, updateWorkspaceSettings } from './workspace';

test('waitFor returns the first truthy value and names what timed out, with the last error', async () => {
  let n = 0;
  assert.equal(await waitFor(() => (++n >= 3 ? `v${n}` : undefined), { what: 'x', timeoutMs: 10_000, intervalMs: 1 }), 'v3');
  await assert.rejects(
    waitFor(
      () => {
        throw new Error('not ready: port closed');
      },
      { what: 'the thing to be ready', timeoutMs: 50, intervalMs: 5 },
    ),
    /timed out after 50 ms waiting for the thing to be ready \(last: not ready: port closed\)/,
  );
});

test('waitFor stops at once on WaitAbortedError', async () => {
  let calls = 0;
  await assert.rejects(
    waitFor(
      () => {
        calls++;
        throw new WaitAbortedError('server exited (1)');
      },
      { what: 'x', timeoutMs: 60_000, intervalMs: 1 },
    ),
    /server exited \(1\)/,
  );
  assert.equal(calls, 1);
});

test('launchedExtensionHosts reads launches from code-server output, optionally after a disconnect', () => {
  const out = [
    '[13:12:11] [127.0.0.1][6aeb0b56][ExtensionHostConnection] <10974> Launched Extension Host Process.',
    '[13:12:17] [127.0.0.1][8196b428][ExtensionHostConnection] <11049> Launched Extension Host Process.',
    '[13:12:17] [127.0.0.1][49ece356][ManagementConnection] The client has disconnected gracefully, so the connection will be disposed.',
    '[13:12:18] [127.0.0.1][2ebd0a61][ExtensionHostConnection] <11065> Launched Extension Host Process.',
  ].join('\n');
  assert.deepEqual(launchedExtensionHosts(out), [10974, 11049, 11065]);
  assert.deepEqual(launchedExtensionHosts(out, CLIENT_DISCONNECTED), [11065]);
  assert.deepEqual(launchedExtensionHosts('no launches', CLIENT_DISCONNECTED), []);
});

test('extensionHostPids finds a --type=extensionHost descendant; isAlive follows it to its death', async () => {
  // A parent whose child carries --type=extensionHost on its command line, like code-server's.
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `
    const { spawn } = require('node:child_process');
    const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '--type=extensionHost'], { stdio: 'ignore' });
    process.stdout.write(String(c.pid) + '\\n');
    setInterval(() => {}, 1000);
  `,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const childPid = await new Promise<number>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(Number(String(b).trim()))));
    await waitFor(() => extensionHostPids(parent.pid!).includes(childPid), { what: 'the child in /proc', timeoutMs: 10_000 });
    assert.deepEqual(extensionHostPids(parent.pid!), [childPid]);
    assert.ok(descendants(parent.pid!).some((p) => p.pid === childPid && p.ppid === parent.pid));
    assert.equal(isAlive(childPid), true);
    process.kill(childPid, 'SIGKILL');
    await waitFor(() => !isAlive(childPid), { what: 'the killed child to be gone', timeoutMs: 10_000 });
    assert.deepEqual(extensionHostPids(parent.pid!), []);
  } finally {
    parent.kill('SIGKILL');
  }
});

test('updateWorkspaceSettings merges into .vscode/settings.json and removes keys set to undefined', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-triage-e2e-ws-'));
  try {
    updateWorkspaceSettings(ws, { 'durableTriage.stateDirectory': '/tmp/s', 'durableTriage.debug.dieAfterTool': 'code_patch' });
    updateWorkspaceSettings(ws, { 'durableTriage.debug.dieAfterTool': undefined, 'editor.tabSize': 2 });
    assert.deepEqual(readWorkspaceSettings(ws), { 'durableTriage.stateDirectory': '/tmp/s', 'editor.tabSize': 2 });
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
