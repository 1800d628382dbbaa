/**
 * Done-when of "Triage a real repository": the crash-folder task end to end through the CLI's
 * run command, on a fixture repository for each runner (vitest, jest, mocha, node:test, pytest,
 * go test), with the model replaced by a scripted stand-in over Anthropic's real wire format and
 * GitHub by the local stand-in of its REST API (under /api/v3). The raw crash logs are grouped;
 * the regression tests are written where the repository keeps its tests; run_tests reports them
 * failing before the fix and passing after; the command runs with `--die-after issue_file`, so
 * the process SIGKILLs itself right after each filing returns, and the same command again
 * resumes it until it exits 0: one issue per group in GitHub, and no model reply paid twice.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPatch } from 'diff';
import { BIN, lastJson } from './support';
import { startServer, type Answer } from '../model/support/fake-server';
import { anthropicFrames, type AnthropicBlock } from '../model/support/wire';
import { startGitHubStandin } from '../support/github-standin';
import { fixtureRepo, FIXTURE_KINDS, type FixtureKind } from '../runners/fixture';
import { groupCrashes } from '../../src/crashes/group';
import { testLayout } from '../../src/runners/layout';
import { readRun } from '../../src/store/files/checkpoint';
import { readMarker, LABEL } from '../../src/tracker/github/marker';
import { idempotencyKey } from '../../src/agent/idempotency-key';

const REPO = 'octo-org/durations';

interface Fix {
  file: string;
  from: string;
  to: string;
}

interface Plan {
  /** The two fixes: the unknown unit (first group), the empty total (second). */
  fixes: [Fix, Fix];
  /** The regression tests' text, for the two groups. */
  tests: [string, string];
}

const JS_FIX = (ext: string): [Fix, Fix] => [
  {
    file: `src/duration${ext}`,
    from: '  return Number(m[1]) * UNITS[m[2]].ms;\n',
    to: '  const unit = UNITS[m[2]];\n  if (!unit) throw new SyntaxError(`unknown unit in ${text}`);\n  return Number(m[1]) * unit.ms;\n',
  },
  { file: `src/report${ext}`, from: '  return durations.reduce((a, b) => a + b);\n', to: '  return durations.reduce((a, b) => a + b, 0);\n' },
];

const PLANS: Record<FixtureKind, Plan> = {
  vitest: {
    fixes: JS_FIX('.ts'),
    tests: [
      "import { expect, test } from 'vitest';\nimport { parseDuration } from '../src/duration';\n\ntest('an unknown unit is a SyntaxError, not a crash', () => {\n  expect(() => parseDuration('5x')).toThrow(SyntaxError);\n});\n",
      "import { expect, test } from 'vitest';\nimport { total } from '../src/report';\n\ntest('the total of no durations is 0', () => {\n  expect(total([])).toBe(0);\n});\n",
    ],
  },
  jest: {
    fixes: JS_FIX('.js'),
    tests: [
      "'use strict';\nconst { parseDuration } = require('../src/duration');\n\ntest('an unknown unit is a SyntaxError, not a crash', () => {\n  expect(() => parseDuration('5x')).toThrow(SyntaxError);\n});\n",
      "'use strict';\nconst { total } = require('../src/report');\n\ntest('the total of no durations is 0', () => {\n  expect(total([])).toBe(0);\n});\n",
    ],
  },
  mocha: {
    fixes: JS_FIX('.js'),
    tests: [
      "'use strict';\nconst assert = require('node:assert/strict');\nconst { parseDuration } = require('../src/duration');\n\ndescribe('an unknown unit', function () {\n  it('is a SyntaxError, not a crash', function () {\n    assert.throws(() => parseDuration('5x'), SyntaxError);\n  });\n});\n",
      "'use strict';\nconst assert = require('node:assert/strict');\nconst { total } = require('../src/report');\n\ndescribe('the total of no durations', function () {\n  it('is 0', function () {\n    assert.equal(total([]), 0);\n  });\n});\n",
    ],
  },
  node: {
    fixes: JS_FIX('.js'),
    tests: [
      "'use strict';\nconst { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { parseDuration } = require('../src/duration');\n\ntest('an unknown unit is a SyntaxError, not a crash', () => {\n  assert.throws(() => parseDuration('5x'), SyntaxError);\n});\n",
      "'use strict';\nconst { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { total } = require('../src/report');\n\ntest('the total of no durations is 0', () => {\n  assert.equal(total([]), 0);\n});\n",
    ],
  },
  pytest: {
    fixes: [
      {
        file: 'durations/duration.py',
        from: '    return int(m.group(1)) * UNITS[m.group(2)]\n',
        to: '    if m.group(2) not in UNITS:\n        raise ValueError(f"unknown unit in {text}")\n    return int(m.group(1)) * UNITS[m.group(2)]\n',
      },
      {
        file: 'durations/report.py',
        from: '    return functools.reduce(operator.add, durations)\n',
        to: '    return functools.reduce(operator.add, durations, 0)\n',
      },
    ],
    tests: [
      'import pytest\n\nfrom durations.duration import parse_duration\n\n\ndef test_unknown_unit_is_a_value_error():\n    with pytest.raises(ValueError):\n        parse_duration("5x")\n',
      'from durations.report import total\n\n\ndef test_total_of_nothing_is_zero():\n    assert total([]) == 0\n',
    ],
  },
  go: {
    fixes: [
      {
        file: 'duration.go',
        from: '\treturn n * units[m[2]].ms, nil\n',
        to: '\tu := units[m[2]]\n\tif u == nil {\n\t\treturn 0, fmt.Errorf("unknown unit in %q", text)\n\t}\n\treturn n * u.ms, nil\n',
      },
      { file: 'report.go', from: '\tsum := durations[0]\n\tfor _, d := range durations[1:] {\n', to: '\tsum := 0\n\tfor _, d := range durations {\n' },
    ],
    tests: [
      'package durations\n\nimport "testing"\n\nfunc TestRegressionUnknownUnit(t *testing.T) {\n\tif _, err := ParseDuration("5x"); err == nil {\n\t\tt.Fatal("want an error for an unknown unit")\n\t}\n}\n',
      'package durations\n\nimport "testing"\n\nfunc TestRegressionTotalOfNothing(t *testing.T) {\n\tif got := Total([]int{}); got != 0 {\n\t\tt.Fatalf("Total of nothing = %d; want 0", got)\n\t}\n}\n',
    ],
  },
};

type Call = [string, Record<string, unknown>];

function turn(id: number, calls: Call[], text?: string): Answer {
  const blocks: AnthropicBlock[] = [
    ...(text ? [{ text: [text] }] : []),
    ...calls.map(([name, args], k) => ({ tool: { id: `toolu_${id}_${k}`, name, parts: [JSON.stringify(args)] } })),
  ];
  return { kind: 'sse', frames: anthropicFrames(blocks) };
}

interface Life {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function life(args: string[], env: NodeJS.ProcessEnv): Promise<Life> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OPENAI_API_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function ownRepo(t: TestContext, kind: FixtureKind): Promise<void> {
  const ws = fixtureRepo(t, kind);
  const state = fs.mkdtempSync(path.join(os.tmpdir(), `triage-own-${kind}-`));
  t.after(() => fs.rmSync(state, { recursive: true, force: true }));
  const grouping = await groupCrashes(ws, 'crashes');
  const layout = await testLayout(ws);
  assert.equal(grouping.groups.length, 2);
  const [a, b] = grouping.groups;
  const plan = PLANS[kind];
  const tests = [layout.regressionTest(a.cause), layout.regressionTest(b.cause)];
  const patch = (f: Fix): string => {
    const before = fs.readFileSync(path.join(ws, f.file), 'utf8');
    assert.ok(before.includes(f.from), `${kind}: ${f.file} holds the bug`);
    return createPatch(f.file, before, before.replace(f.from, f.to));
  };
  const script: Answer[] = [
    turn(
      1,
      [
        ['list_files', {}],
        ['read_file', { path: a.reports[0] }],
        ['read_file', { path: b.reports[0] }],
      ],
      'Reading the reports.',
    ),
    turn(2, [
      ['write_file', { path: tests[0], content: plan.tests[0] }],
      ['write_file', { path: tests[1], content: plan.tests[1] }],
    ]),
    turn(3, [['run_tests', { files: tests }]]),
    turn(4, [
      ['code_patch', { path: plan.fixes[0].file, patch: patch(plan.fixes[0]) }],
      ['code_patch', { path: plan.fixes[1].file, patch: patch(plan.fixes[1]) }],
    ]),
    turn(5, [
      ['run_tests', { files: tests }],
      ['run_tests', {}],
    ]),
    turn(6, [
      [
        'issue_file',
        {
          title: 'parseDuration crashes on an unknown unit',
          body: `Reports: ${a.reports.join(', ')}. Fixed: an unknown unit is an error now.`,
          cause: a.cause,
        },
      ],
      ['issue_file', { title: 'total crashes on an empty list', body: `Reports: ${b.reports.join(', ')}. Fixed: the total of nothing is 0.`, cause: b.cause }],
    ]),
    { kind: 'sse', frames: anthropicFrames([{ text: ['Fixed both causes and filed #1 and #2.'] }]) },
  ];
  const model = await startServer(script);
  t.after(() => model.close());
  const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  t.after(() => gh.close());

  const args = [
    'run',
    '--task',
    'crash-folder',
    '--workspace',
    ws,
    '--crashes',
    'crashes',
    '--state',
    state,
    '--model',
    'anthropic',
    '--model-name',
    'claude-sonnet-4-5',
    '--base-url',
    model.url,
    '--tracker',
    `github:${REPO}`,
    '--approve',
    'yes',
    '--die-after',
    'issue_file',
    '--json',
  ];
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', GITHUB_TOKEN: gh.token, GITHUB_API_URL: gh.url };
  const lives: Life[] = [];
  for (let n = 0; n < 5; n++) {
    const l = await life(args, env);
    lives.push(l);
    if (l.signal !== 'SIGKILL') break;
  }
  const seen = lives.map((l) => (l.signal ? l.signal : `exit ${l.code}`)).join(', ');
  const last = lives[lives.length - 1];
  assert.equal(last.code, 0, `${kind} (${seen}): ${last.stderr}`);
  assert.deepEqual(
    lives.map((l) => l.signal ?? l.code),
    ['SIGKILL', 'SIGKILL', 0],
    `${kind}: killed right after each filing, then resumed (${seen})`,
  );

  // One issue per group in GitHub, each with the call's key in its hidden marker and our label.
  const issues = gh.issues(REPO);
  assert.deepEqual(
    issues.map((i) => readMarker(i.body)?.marker.cause),
    [a.cause, b.cause],
    `${kind}: one issue per group`,
  );
  assert.ok(issues.every((i) => i.labels.includes(LABEL)));
  const out = lastJson<{ runId: string; phase: string; modelCalls: number; issues: { number: number; cause: string }[] }>(last.stdout);
  assert.equal(out.phase, 'done');
  assert.deepEqual(
    out.issues.map((i) => [i.number, i.cause]),
    [
      [1, a.cause],
      [2, b.cause],
    ],
  );
  assert.deepEqual(
    issues.map((i) => readMarker(i.body)?.marker.key),
    [idempotencyKey(out.runId, 'toolu_6_0'), idempotencyKey(out.runId, 'toolu_6_1')],
  );
  assert.equal(model.requests.length, script.length, `${kind}: every model reply was paid once`);
  assert.ok(!gh.requests.some((r) => r.path.includes('/search/')), 'the lookup never used the search API');

  // The prompt named the groups and where this repository keeps its tests.
  const prompt = JSON.stringify(model.requests[0].body);
  for (const g of [a, b]) assert.ok(prompt.includes(`cause \\"${g.cause}\\"`), `${kind}: the prompt names ${g.cause}`);
  assert.ok(prompt.includes(layout.regressionTest('<cause>')), `${kind}: the prompt says where the tests go`);

  // The regression tests are where the repository keeps its tests; failing before the fix, passing after.
  for (const f of tests) assert.ok(fs.existsSync(path.join(ws, f)), `${kind}: ${f} written`);
  const run = await readRun(state, out.runId);
  assert.equal(run.config.crashGroups?.length, 2, 'the grouping is saved with the run');
  const results = new Map(run.messages.flatMap((m) => (m.role === 'tool' ? m.results : [])).map((r) => [r.callId, r.content]));
  const before = results.get('toolu_3_0') ?? '';
  const after = results.get('toolu_5_0') ?? '';
  const suite = results.get('toolu_5_1') ?? '';
  assert.match(before, /^tests: \d+ passed, [12] failed\n/, `${kind}: failing before the fix:\n${before}`);
  assert.match(before, /FAILED: /);
  assert.match(after, /^tests: 2 passed, 0 failed\n/, `${kind}: passing after the fix:\n${after}`);
  assert.match(suite, /^tests: 4 passed, 0 failed\n/, `${kind}: the whole suite passes:\n${suite}`);
  assert.match(suite, new RegExp(`^runner: ${kind} `, 'm'));
  assert.ok(!before.includes(ws) && !suite.includes(ws), 'no absolute paths in what the model saw');
}

for (const kind of FIXTURE_KINDS)
  test(`${kind}: the crash-folder task end to end, killed after each issue_file, one GitHub issue per group`, (t) => ownRepo(t, kind));
