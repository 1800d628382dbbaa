/**
 * The same command twice is crash, then resume, wherever the crash lands: the whole process
 * group (the CLI, its embedded tracker, the test runs it spawned) is SIGKILLed at points the CLI
 * reports (its progress lines on stderr: a turn asked, a tool's result, an approval, a file
 * checked), a seeded number of lines into each life, and the same command is run again until it
 * exits 0. Killing at reported points, not at fixed times, keeps the kills inside the run on a
 * fast machine and a slow one alike. The tracker must end with exactly one issue per crash group,
 * every check passing, and one run in the state folder. Then `--new` starts a second run on purpose.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, lastJson, triage } from './support';
import { tempDir } from '../support/temp-dir';
import { Rng } from '../../tools/rng';

interface Life {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The progress line on which the life was killed, when it was. */
  killedAt?: string;
}

/**
 * One life: the command in its own process group, SIGKILLed (the whole group) as soon as it has
 * reported `killAtLine` progress lines on stderr, unless it ended first.
 */
function life(args: string[], killAtLine: number | undefined): Promise<Life> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
    });
    let stdout = '';
    let stderr = '';
    let killedAt: string | undefined;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (killAtLine === undefined || killedAt !== undefined) return;
      const lines = stderr.split('\n').slice(0, -1); // complete lines only
      if (lines.length < killAtLine) return;
      killedAt = lines[killAtLine - 1];
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // it ended just now
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, killedAt }));
  });
}

test('SIGKILLs of the whole process group at reported points, then the same command until exit 0: one issue per crash group', async (t) => {
  const state = tempDir(t, 'triage-kill-');
  const main = lastJson<{ tasks: { name: string; main: boolean; groups: string[]; checks: number }[] }>(triage(['tasks', '--json']).stdout).tasks.find(
    (t) => t.main,
  )!;
  const args = ['run', '--task', main.name, '--state', state, '--approve', 'yes', '--json'];
  const random = new Rng(20261203); // seeded, so a failure can be replayed with the same kill times
  const KILLED_LIVES = 8;
  let kills = 0;
  let last: Life | undefined;
  const seen: string[] = [];
  for (let n = 0; n < 30; n++) {
    // The run prints about 80 progress lines; 8 lives of 1 to 12 lines each end well before it is done.
    const at = n < KILLED_LIVES ? 1 + Math.floor(random.next() * 12) : undefined;
    last = await life(args, at);
    seen.push(last.signal ? `killed at line ${at} "${last.killedAt?.trim()}"` : `exit ${last.code}`);
    if (last.signal === 'SIGKILL') {
      kills++;
      continue;
    }
    assert.equal(last.code, 0, `life ${n} (${seen.join(', ')}): ${last.stderr}`);
    break;
  }
  assert.equal(last?.code, 0, `the run never finished: ${seen.join(', ')}`);
  assert.ok(kills >= 4, `at least four lives were killed at a reported point mid-run (${seen.join(', ')})`);
  const r = lastJson<{ runId: string; phase: string; checks: { passed: number; total: number; failed: string[] }; issues: { cause: string }[] }>(last!.stdout);
  assert.equal(r.phase, 'done');
  assert.equal(r.checks.passed, r.checks.total, `failed: ${r.checks.failed.join(', ')} (${seen.join(', ')})`);
  const listed = lastJson<{ issues: { cause: string; runId?: string }[] }>(triage(['tracker', 'list', '--state', state, '--json']).stdout).issues;
  assert.deepEqual(listed.map((i) => i.cause).sort(), [...main.groups].sort(), `exactly one issue per crash group (${seen.join(', ')})`);
  const runs = lastJson<{ runs: { runId: string }[] }>(triage(['status', '--state', state, '--json']).stdout).runs;
  assert.deepEqual(
    runs.map((x) => x.runId),
    [r.runId],
    'one run: every life after a kill resumed it',
  );

  // Only on request does the same task get a second run (its own copy of the sample, so its own issues).
  const fresh = triage([...args, '--new']);
  assert.equal(fresh.status, 0, fresh.stderr);
  const f = lastJson<{ runId: string; modelCalls: number; finishedBefore: boolean; issues: { cause: string }[] }>(fresh.stdout);
  assert.notEqual(f.runId, r.runId);
  assert.ok(f.modelCalls > 0);
  assert.equal(f.finishedBefore, false);
  assert.deepEqual(f.issues.map((i) => i.cause).sort(), [...main.groups].sort());
  assert.equal(lastJson<{ runs: unknown[] }>(triage(['status', '--state', state, '--json']).stdout).runs.length, 2);
});
