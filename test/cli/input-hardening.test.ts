/**
 * Through the real CLI: --record never replaces an existing file without --force, a
 * --base-url with a user name or password is refused at once (exit 2) without printing it, and
 * so is a state folder others can write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { triage, lastJson } from './support';

function mainTask(): string {
  return lastJson<{ tasks: { name: string; main: boolean }[] }>(triage(['tasks', '--json']).stdout).tasks.find((t) => t.main)!.name;
}

function tempDir(t: import('node:test').TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-cli-hard-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('--record refuses an existing file (exit 2, nothing started, the file untouched); --force writes the recording', (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, 'state');
  const file = path.join(dir, 'notes.txt');
  fs.writeFileSync(file, 'my notes, not a recording\n');
  const task = mainTask();

  const refused = triage(['run', '--task', task, '--state', state, '--approve', 'yes', '--record', file, '--json']);
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /--record .*notes\.txt already exists/);
  assert.match(refused.stderr, /--force/);
  assert.equal(fs.readFileSync(file, 'utf8'), 'my notes, not a recording\n');
  assert.equal(fs.existsSync(path.join(state, 'runs')), false, 'no run was started');

  // A link counts as there too: it is not followed, and not replaced.
  const link = path.join(dir, 'link.json');
  fs.symlinkSync(path.join(dir, 'nowhere.json'), link);
  assert.equal(triage(['run', '--task', task, '--state', state, '--approve', 'yes', '--record', link]).status, 2);
  assert.equal(fs.readlinkSync(link), path.join(dir, 'nowhere.json'));

  const forced = triage(['run', '--task', task, '--state', state, '--approve', 'yes', '--record', file, '--force', '--json']);
  assert.equal(forced.status, 0, forced.stderr);
  const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as { task: string; turns: unknown[] };
  assert.equal(rec.task, task);
  assert.ok(rec.turns.length > 0);
});

test('a --base-url with a user name or password exits 2 at once, never printing the secret or saving a run', (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, 'state');
  const r = triage([
    'run',
    '--task',
    mainTask(),
    '--state',
    state,
    '--model',
    'openai',
    '--base-url',
    'http://alice:hunter2@127.0.0.1:9/v1',
    '--approve',
    'yes',
  ]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--base-url holds a user name or password \(http:\/\/\*\*\*@127\.0\.0\.1:9\/v1\)/);
  assert.ok(!/alice|hunter2/.test(r.stderr + r.stdout), r.stderr);
  assert.equal(fs.existsSync(path.join(state, 'runs')), false, 'no run was saved');

  const env = triage(['run', '--task', mainTask(), '--state', state, '--model', 'openai', '--approve', 'yes'], {
    env: { OPENAI_BASE_URL: 'http://alice:hunter2@127.0.0.1:9/v1' },
  });
  assert.equal(env.status, 2, env.stderr);
  assert.match(env.stderr, /OPENAI_BASE_URL holds a user name or password/);
  assert.ok(!/alice|hunter2/.test(env.stderr + env.stdout), env.stderr);
});

test('a state folder anyone can write is refused (exit 2) with the fix, and left as it is', (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, 'state');
  fs.mkdirSync(state);
  fs.chmodSync(state, 0o777);
  const r = triage(['status', '--state', state]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /can be written by anyone \(mode 0777\)/);
  assert.ok(r.stderr.includes(`chmod 700 ${state}`), r.stderr);
  assert.equal(fs.statSync(state).mode & 0o777, 0o777);
});
