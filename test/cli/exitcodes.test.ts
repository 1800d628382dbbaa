import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { triage, lastJson } from './support';
import { EXIT, exitCodeOf } from '../../src/cli/exitcodes';
import { USAGE } from '../../src/cli/usage';
import { TrackerStoreCorruptError } from '../../src/tracker/errors';
import { tempDir } from '../support/temp-dir';

test('bad input exits 2 with a message naming the problem', () => {
  const unknownTask = triage(['run', '--task', 'no-such-task', '--state', os.tmpdir()]);
  assert.equal(unknownTask.status, 2);
  assert.match(unknownTask.stderr, /no-such-task/);
  const badFlag = triage(['run', '--bogus']);
  assert.equal(badFlag.status, 2);
  const badApprove = triage(['run', '--task', 'x', '--state', os.tmpdir(), '--approve', 'maybe']);
  assert.equal(badApprove.status, 2);
  assert.match(badApprove.stderr, /--approve/);
});

test('a run that needs approval on a non-interactive terminal pauses (exit 3) and resumes', (t) => {
  const state = tempDir(t, 'triage-pause-');
  const main = lastJson<{ tasks: { name: string; main: boolean }[] }>(triage(['tasks', '--json']).stdout).tasks.find((t) => t.main)!;
  const first = triage(['run', '--task', main.name, '--state', state, '--approve', 'ask', '--json']);
  assert.equal(first.status, 3, first.stderr);
  const r = lastJson<{ phase: string; pending: { kind: string; tool: string }[] }>(first.stdout);
  assert.equal(r.phase, 'paused');
  assert.equal(r.pending[0].tool, 'issue_file');
  const status = lastJson<{ runs: { pending: { tool: string }[] }[] }>(triage(['status', '--state', state, '--json']).stdout);
  assert.equal(status.runs[0].pending[0].tool, 'issue_file');
  const second = triage(['run', '--task', main.name, '--state', state, '--approve', 'yes', '--json']);
  assert.equal(second.status, 0, second.stderr);
  assert.equal(lastJson<{ phase: string }>(second.stdout).phase, 'done');
});

test('a corrupt checkpoint exits 8, names the file and is left untouched', (t) => {
  const state = tempDir(t, 'triage-corrupt-');
  const main = lastJson<{ tasks: { name: string; main: boolean }[] }>(triage(['tasks', '--json']).stdout).tasks.find((t) => t.main)!;
  const first = triage(['run', '--task', main.name, '--state', state, '--die-after', 'code_patch', '--approve', 'yes']);
  assert.equal(first.signal, 'SIGKILL');
  const runs = path.join(state, 'runs');
  const file = path.join(
    runs,
    fs.readdirSync(runs).find((f) => f.endsWith('.json'))!,
  );
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const cut = fs.readFileSync(file);
  const second = triage(['status', '--state', state]);
  assert.equal(second.status, 0);
  assert.match(second.stdout, /UNREADABLE/);
  const id = path.basename(file, '.json');
  const resume = triage(['show', '--state', state, '--run', id]);
  assert.equal(resume.status, 8, resume.stderr);
  assert.ok(resume.stderr.includes(file), resume.stderr);
  assert.deepEqual(fs.readFileSync(file), cut);
});

test('a corrupt tracker issue file has its own exit status (13), named in the usage, and is left untouched', () => {
  assert.equal(exitCodeOf(new TrackerStoreCorruptError('/x/issues.json', 'not valid JSON')), EXIT.trackerStoreCorrupt);
  assert.equal(EXIT.trackerStoreCorrupt, 13);
  assert.match(USAGE, /13 tracker issue file corrupt/);
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-tracker-corrupt-'));
  try {
    const file = path.join(state, 'tracker', 'issues.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"issues":[{"num');
    const r = triage(['tracker', 'list', '--state', state]);
    assert.equal(r.status, 13, r.stderr);
    assert.ok(r.stderr.includes(file), r.stderr);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"version":1,"issues":[{"num');
  } finally {
    fs.rmSync(state, { recursive: true, force: true });
  }
});
