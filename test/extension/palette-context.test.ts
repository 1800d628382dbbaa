// The palette lists a run command only when there is something for it to act on: the `when`
// clauses in package.json name context keys the extension sets from its state (palette-context.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONTEXT_KEYS, changedKeys, paletteContext, questionsInPalette } from '../../src/extension/logic/palette-context';

function manifest(): { contributes: { menus: { commandPalette: { command: string; when?: string }[] } } } {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'src', 'extension'))) dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as ReturnType<typeof manifest>;
}

/** The palette's `when` of a command, evaluated for the keys (only "key" and "false" clauses are used). */
function shown(command: string, keys: Record<string, boolean>): boolean {
  const entry = manifest().contributes.menus.commandPalette.find((e) => e.command === command);
  if (!entry?.when) return true;
  if (entry.when === 'false') return false;
  assert.ok(entry.when in keys, `${command}'s when clause "${entry.when}" is a key the extension sets`);
  return keys[entry.when];
}

test('with no run, the palette hides Approve, Deny, Cancel, Resume and the run commands', () => {
  const keys = paletteContext({ runs: [], waiting: 0, activeHere: [] });
  for (const c of ['approve', 'deny', 'cancel', 'resume', 'undoRun', 'reviewChanges', 'deleteRun', 'openCheckpoint', 'openRun'])
    assert.equal(shown(`durableTriage.${c}`, keys), false, `${c} hidden`);
  for (const c of ['start', 'setApiKey', 'showLog']) assert.equal(shown(`durableTriage.${c}`, keys), true, `${c} shown`);
});

test('a question waiting shows Approve and Deny; a run running here shows Cancel', () => {
  const keys = paletteContext({ runs: [{ runId: 'r', phase: 'awaiting', locked: true }], waiting: 1, activeHere: ['r'] });
  for (const c of ['approve', 'deny', 'cancel', 'undoRun']) assert.equal(shown(`durableTriage.${c}`, keys), true, `${c} shown`);
  // Running here: nothing to resume.
  assert.equal(shown('durableTriage.resume', keys), false);
});

test('a paused run nobody has open can be resumed; one open in another window cannot', () => {
  assert.equal(paletteContext({ runs: [{ runId: 'r', phase: 'running', locked: false }], waiting: 0, activeHere: [] })[CONTEXT_KEYS.hasResumableRun], true);
  assert.equal(paletteContext({ runs: [{ runId: 'r', phase: 'running', locked: true }], waiting: 0, activeHere: [] })[CONTEXT_KEYS.hasResumableRun], false);
  assert.equal(paletteContext({ runs: [{ runId: 'r', phase: 'done', locked: false }], waiting: 0, activeHere: [] })[CONTEXT_KEYS.hasResumableRun], false);
});

test('only the keys that changed are set again', () => {
  const a = paletteContext({ runs: [], waiting: 0, activeHere: [] });
  const b = paletteContext({ runs: [{ runId: 'r', phase: 'running', locked: true }], waiting: 0, activeHere: ['r'] });
  assert.deepEqual(changedKeys(a, b).sort(), [CONTEXT_KEYS.hasActiveRun, CONTEXT_KEYS.hasRuns].sort());
  assert.deepEqual(changedKeys({}, a).length, Object.keys(CONTEXT_KEYS).length);
  assert.deepEqual(changedKeys(a, a), []);
});

test("a question asked in another window keeps Approve in this window's palette (its pick says where to answer), though the badge leaves it out", () => {
  // The second window: badge 0, one question saved in a run another window holds.
  const waiting = questionsInPalette(0, [
    { locked: true, pending: 1 },
    { locked: false, pending: 0 },
  ]);
  assert.equal(waiting, 1);
  assert.equal(paletteContext({ runs: [{ runId: 'r1', phase: 'paused', locked: true }], waiting, activeHere: [] })[CONTEXT_KEYS.hasPendingQuestion], true);
  // No question anywhere: hidden.
  assert.equal(questionsInPalette(0, [{ locked: true, pending: 0 }]), 0);
});
