/**
 * The whole Sentry -> pull request flow (`--crashes sentry:acme/api --tracker github:acme/api
 * --pull-requests`) through the real CLI, its process group SIGKILLed a seeded number of progress
 * lines into each of a few lives (so a failure replays with the same kill points), then the same
 * command until it exits 0: one issue, one commit on its branch, one pull request and one Sentry
 * comment per cause, the user's dirty checkout untouched, one run in the state folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastJson, triage } from './support';
import { expectNoToken, expectOnePerCause, startFlow, type Life } from './sentry-pr-setup';
import { Rng } from '../../tools/rng';

const SEED = Number(process.env.TRIAGE_KILL_SEED ?? 20261204);
/** Killed lives: each resumes the run, gets some way further and is killed again. */
const KILLED_LIVES = 6;
/** A full run prints about 60 progress lines; a life is killed 4 to 20 lines in (a resumed life prints a few lines before it acts again), so the kills reach the pull requests and the comments. */
const MIN_LINE = 4;
const MAX_LINE = 20;

test(`Sentry -> pull requests: SIGKILLed at seeded points (seed ${SEED}), rerun until exit 0: one of each per cause`, async (t) => {
  const f = await startFlow(t);
  const before = f.checkout();
  const random = new Rng(SEED);
  const seen: string[] = [];
  let last: Life | undefined;
  let kills = 0;
  for (let n = 0; n < 12; n++) {
    const at = n < KILLED_LIVES ? MIN_LINE + Math.floor(random.next() * (MAX_LINE - MIN_LINE + 1)) : undefined;
    last = await f.life(f.args(), at === undefined ? {} : { killAtLine: at });
    seen.push(last.signal ? `killed at line ${at} "${last.killedAt?.trim()}"` : `exit ${last.code}`);
    if (last.signal === 'SIGKILL') {
      kills++;
      continue;
    }
    assert.equal(last.code, 0, `life ${n} (${seen.join(', ')}): ${last.stderr}`);
    break;
  }
  t.diagnostic(`lives: ${seen.join(', ')}`);
  assert.equal(last?.code, 0, `the run never finished: ${seen.join(', ')}`);
  // A life may finish before its kill line (late kills land past the end), so not every one is killed.
  assert.ok(kills >= 3, `at least three lives were killed mid-run (${seen.join(', ')})`);
  const out = lastJson<{ runId: string; phase: string }>(last!.stdout);
  assert.equal(out.phase, 'done');
  expectOnePerCause(f, out.runId, before, `(${seen.join(', ')})`);
  const runs = lastJson<{ runs: { runId: string }[] }>(triage(['status', '--state', f.state, '--json']).stdout).runs;
  assert.deepEqual(
    runs.map((r) => r.runId),
    [out.runId],
    'one run: every life after a kill resumed it',
  );
  expectNoToken(f.state);
});
