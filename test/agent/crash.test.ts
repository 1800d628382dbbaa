/**
 * Crash the loop at every point a crash can land (each save point, inside each
 * checkpoint write, between a tool acting and its result being saved), restart, finish,
 * and count: side effects done twice (or never), replies paid twice, questions asked.
 * Uses the real checkpoint store (syncs off, as the chapter's sweep does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { runPath, readRun } from '../../src/store/files/checkpoint';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { TOOL_ACTED } from '../../src/store/crash-points';
import { WritePoint } from '../../src/disk/write-points';
import { reply, ScriptModel, Service, keyedTool, lookupTool, bareTool, readTool, approvalTool, Person, freshState, tmp } from './support';
import { openStore } from '../../src/store/open-store';

const SCRIPT = [
  reply(0, [
    ['read', { path: 'a' }],
    ['keyed', { note: 'k1' }],
  ]),
  reply(1, [
    ['looked', { note: 'l1' }],
    ['bare', { note: 'b1' }],
  ]),
  reply(2, [
    ['file', { note: 'f1' }],
    ['keyed', { note: 'k2' }],
  ]),
  reply(3, [], 'done'),
];
const NOTES = ['b1', 'f1', 'k1', 'k2', 'l1'];

interface Count {
  /** "<life>:<point>" for every point passed in life 0 (and in lives that crash). */
  points: string[];
  /** Side effects done more than once. */
  duplicates: number;
  /** Requests for a turn whose reply was already durably saved. */
  paidTwice: number;
  /** Requests for a turn asked before (a reply lost before its save): at most one per crash. */
  askedAgain: number;
  questions: number;
  asked: string[];
  approvals: number;
  notes: string[];
  finished: boolean;
}

async function scenario(keys: boolean, crashAt: number[]): Promise<Count> {
  const dir = tmp('triage-crash-');
  try {
    const svc = new Service();
    const model = new ScriptModel(SCRIPT);
    const person = new Person(svc);
    let savedTurns = 0;
    let paidTwice = 0;
    let askedAgain = 0;
    const complete = model.complete.bind(model);
    model.complete = async (req) => {
      if (req.turn < savedTurns) paidTwice++;
      if ((model.requests[req.turn] ?? 0) > 0) askedAgain++;
      return complete(req);
    };
    const parts = (): RunParts => ({
      model,
      tools: toolSet([readTool(), keyedTool(svc), lookupTool(svc), bareTool(svc), approvalTool(svc)]),
      approver: person,
    });
    const points: string[] = [];
    let finished = false;
    for (let life = 0; life < 6 && !finished; life++) {
      let n = 0;
      const crash = (p: string): void => {
        n++;
        if (life === 0 || crashAt[life] !== undefined) points.push(`${life}:${p}`);
        if (n === crashAt[life]) throw new SimulatedCrash(p);
      };
      try {
        const common = { runStore: openStore(dir), parts, crash, store: { sync: false } };
        const r = fs.existsSync(runPath(dir, 'run'))
          ? await resumeRun({ ...common, runId: 'run' })
          : await startRun({ ...common, state: freshState('run', dir, keys) });
        finished = r.phase === 'done';
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) throw e;
      }
      // What the next life can know: the replies that reached the disk.
      if (fs.existsSync(runPath(dir, 'run'))) savedTurns = (await readRun(dir, 'run')).turns;
    }
    const notes = svc.records.map((r) => r.note).sort();
    if (finished) assert.equal((await readRun(dir, 'run')).answer, 'done');
    return {
      points,
      duplicates: notes.length - new Set(notes).size,
      paidTwice,
      askedAgain,
      questions: person.questions,
      asked: person.asked,
      approvals: person.approvals,
      notes: [...new Set(notes)],
      finished,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function check(c: Count, crashes: number, where: string): void {
  assert.ok(c.finished, `${where}: did not finish`);
  assert.equal(c.duplicates, 0, `${where}: a side effect done twice`);
  assert.deepEqual(c.notes, NOTES, `${where}: every side effect done once`);
  assert.equal(c.paidTwice, 0, `${where}: a saved reply paid twice`);
  assert.ok(c.askedAgain <= crashes, `${where}: ${c.askedAgain} replies asked again after ${crashes} crash(es)`);
  assert.ok(c.approvals >= 1 && c.approvals <= 1 + crashes, `${where}: ${c.approvals} approvals`);
}

for (const keys of [true, false]) {
  test(`crash at every point, then again during the restart (keys ${keys ? 'on' : 'off'})`, async () => {
    const clean = await scenario(keys, []);
    check(clean, 0, 'no crash');
    assert.equal(clean.questions, 0, 'a run without crashes asks no ladder question');
    assert.equal(clean.approvals, 1);
    const total = clean.points.length;
    assert.ok(total > 30, `found ${total} crash points`);
    const kinds: string[] = [...Object.values(SavePoint), ...Object.values(WritePoint), TOOL_ACTED];
    for (const k of kinds)
      assert.ok(
        clean.points.some((p) => p.endsWith(`:${k}`)),
        `no ${k} point`,
      );
    let questions = 0;
    const asked = new Set<string>();
    for (let i = 1; i <= total; i++) {
      const one = await scenario(keys, [i]);
      check(one, 1, `crash at ${clean.points[i - 1]}`);
      questions += one.questions;
      one.asked.forEach((t) => asked.add(t));
      for (let j = 1; j <= 40; j += 7) {
        const two = await scenario(keys, [i, j]);
        check(two, 2, `crashes at ${clean.points[i - 1]} and then at restart point ${j}`);
        questions += two.questions;
        two.asked.forEach((t) => asked.add(t));
      }
    }
    // Only the unkeyed tool without a lookup needs a person when keys are on; with keys off
    // the keyed tools (which have no lookup) need one too.
    assert.ok(asked.has('bare'), 'the bare tool must have asked a person at least once');
    if (keys) assert.deepEqual([...asked], ['bare'], `with keys on, questions were about ${[...asked].join(', ')}`);
    else assert.ok(asked.has('keyed') && asked.has('file'), `with keys off, questions were about ${[...asked].join(', ')}`);
    assert.ok(questions > 0);
  });
}

test('a crash right after a keyed call acted: rerun with its key when keys are on, a question when off', async () => {
  const clean = await scenario(false, []);
  const firstKeyedActed = clean.points.findIndex((p, i) => p.endsWith(`:${TOOL_ACTED}`) && clean.points.slice(0, i).some((q) => q.endsWith(`:${TOOL_ACTED}`)));
  const at = firstKeyedActed + 1; // the second tool to act is "keyed" (the first is the read)
  const off = await scenario(false, [at]);
  const on = await scenario(true, [at]);
  check(off, 1, 'keys off');
  check(on, 1, 'keys on');
  assert.deepEqual(off.asked, ['keyed']);
  assert.deepEqual(on.asked, []);
});
