/**
 * Crash the loop at every point a crash can land (each save point, inside each
 * checkpoint write, between a tool acting and its result being saved), restart, finish,
 * and count: side effects done twice, replies paid twice, questions asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { runPath, readRun } from '../../src/durable/checkpoint';
import { SimulatedCrash } from '../../src/durable/errors';
import type { LoopEvent } from '../../src/agent/loop';
import { SavePoint } from '../../src/durable/savepoints';
import { reply, ScriptModel, Service, keyedTool, lookupTool, bareTool, readTool, Person, freshState, tmp } from './support';

const SCRIPT = [
  reply(0, [['read', { path: 'a' }], ['keyed', { note: 'k1' }]]),
  reply(1, [['looked', { note: 'l1' }], ['bare', { note: 'b1' }]]),
  reply(2, [['keyed', { note: 'k2' }]]),
  reply(3, [], 'done'),
];

interface Count {
  points: string[];
  duplicates: number;
  paidTwice: number;
  questions: number;
  finished: boolean;
}

async function scenario(keys: boolean, crashAt: number[]): Promise<Count> {
  const dir = tmp('triage-crash-');
  try {
    const svc = new Service();
    const model = new ScriptModel(SCRIPT);
    const person = new Person(svc);
    const saved = new Set<number>();
    let pendingTurn: number | undefined;
    let paidTwice = 0;
    const complete = model.complete.bind(model);
    model.complete = async (req) => {
      if (saved.has(req.turn)) paidTwice++;
      return complete(req);
    };
    const parts = (): RunParts => ({ model, tools: toolSet([readTool(), keyedTool(svc), lookupTool(svc), bareTool(svc)]), approver: person });
    const onEvent = (e: LoopEvent): void => {
      if (e.type === 'reply') pendingTurn = e.turn;
      if (e.type === 'saved' && (e.point === SavePoint.ReplyArrived || e.point === SavePoint.PausedOrDone) && pendingTurn !== undefined) {
        saved.add(pendingTurn);
        pendingTurn = undefined;
      }
    };
    const points: string[] = [];
    let finished = false;
    for (let life = 0; life < 5 && !finished; life++) {
      let n = 0;
      const crash = (p: string): void => {
        n++;
        if (life === 0 || crashAt[life] !== undefined) points.push(`${life}:${p}`);
        if (n === crashAt[life]) throw new SimulatedCrash(p);
      };
      try {
        const common = { stateDir: dir, parts, crash, onEvent, store: { sync: false } };
        const r = fs.existsSync(runPath(dir, 'run'))
          ? await resumeRun({ ...common, runId: 'run' })
          : await startRun({ ...common, state: freshState('run', dir, keys) });
        finished = r.phase === 'done';
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) throw e;
      }
    }
    const notes = svc.records.map((r) => r.note);
    const duplicates = notes.length - new Set(notes).size;
    if (finished) assert.equal((await readRun(dir, 'run')).answer, 'done');
    return { points, duplicates, paidTwice, questions: person.questions, finished };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const keys of [true, false]) {
  test(`crash at every point, then again during the restart (keys ${keys ? 'on' : 'off'})`, async () => {
    const clean = await scenario(keys, []);
    assert.ok(clean.finished);
    const total = clean.points.length;
    assert.ok(total > 30, `found ${total} crash points`);
    // Every kind of point is among them.
    for (const k of ['run-started', 'reply-arrived', 'attempt-marked', 'result-saved', 'paused-or-done', 'write:temp-synced', 'write:renamed', 'tool:acted'])
      assert.ok(clean.points.some((p) => p.endsWith(`:${k}`)), `no ${k} point`);
    let questions = 0;
    let scenarios = 0;
    for (let i = 1; i <= total; i++) {
      const one = await scenario(keys, [i]);
      scenarios++;
      assert.ok(one.finished, `crash at ${clean.points[i - 1]}: did not finish`);
      assert.equal(one.duplicates, 0, `crash at ${clean.points[i - 1]}: a side effect done twice`);
      assert.equal(one.paidTwice, 0, `crash at ${clean.points[i - 1]}: a reply paid twice`);
      questions += one.questions;
      for (let j = 1; j <= 40; j += 7) {
        const two = await scenario(keys, [i, j]);
        scenarios++;
        assert.ok(two.finished);
        assert.equal(two.duplicates, 0, `crashes at ${i} and ${j}: a side effect done twice`);
        assert.equal(two.paidTwice, 0);
        questions += two.questions;
      }
    }
    if (keys) {
      // Keyed calls never reach the person; only the unkeyed tool without a lookup can.
      assert.ok(questions > 0, 'the bare tool must have asked a person at least once');
    }
    assert.ok(scenarios > total);
  });
}

test('with keys off, the keyed tool marked and unanswered goes to the person', async () => {
  // Crash right after the keyed call acted (the second call to act: the first is the read).
  const clean = await scenario(false, []);
  const acted = clean.points.map((p, i) => [p, i] as const).filter(([p]) => p.endsWith(':tool:acted'));
  const idx = acted[1][1] + 1;
  const keysOff = await scenario(false, [idx + 0]);
  const keysOn = await scenario(true, [idx + 0]);
  assert.equal(keysOff.duplicates, 0);
  assert.equal(keysOn.duplicates, 0);
  assert.ok(keysOff.questions > keysOn.questions, `keys off asked ${keysOff.questions}, keys on ${keysOn.questions}`);
});
