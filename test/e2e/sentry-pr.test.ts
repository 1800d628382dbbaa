// The real-editor scenario of issue 21: a Sentry project's crash groups in, one branch and one
// pull request per cause out. The editor's settings point at stand-ins on 127.0.0.1 (Sentry,
// GitHub, and a model answering Anthropic's API from a script); the workspace is a clone of a
// real bare repository, so worktrees, commits and pushes are git's own. The tokens are set as a
// user does (Set API Key, Set Sentry Token); GitHub's comes from the editor's GitHub Enterprise
// sign-in, which a stand-in extension answers (test/e2e/github-signin/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  E2eSuite,
  type E2eSession,
  errorNotifications,
  hasNotification,
  notificationMessage,
  pickQuickItem,
  quickPickRows,
  runCommand,
  waitFor,
} from './harness';
import { REPO_ROOT } from './paths';
import { branches, bareRemoteAndClone, git } from './git-repo';
import { gitHubSigninServer, packageGitHubSignin } from './github-signin';
import {
  nodeFixtureIssues,
  startGitHubStandin,
  startScriptedModel,
  startSentryStandin,
  type GitHubStandin,
  type ModelServer,
  type ModelTurn,
  type SentryStandin,
} from './standins';
import { APPROVAL, CMD_START, LOG_NAME, approveOne, exactly } from './triage-ui';
import { clickDialogButton, runPanel, scrollPanelTo, waitForRunPanel } from './run-panel';
import { clickNotificationButton, openNotificationCenter, waitForNotification } from './workbench';
import { WaitAbortedError } from './wait';

const REPO = 'acme/durations';
const ORG = 'acme';
const PROJECT = 'durations';
const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'repos', 'node');
const ANTHROPIC_KEY = 'sk-ant-e2e-standin';
/** A crash-folder run has no checks: "Durable Triage: crash-folder finished: issues #1, #3 (run <task>…<tail>)." */
const FINISHED = /Durable Triage: crash-folder finished: issues (.+) \(run (\S+)\)\./;

/** The two most frequent Sentry issues of the stand-in (sentryLimit 2), as the run's causes. */
const CAUSES = [
  {
    cause: 'parse-duration-type-error',
    sentryId: '101',
    title: "TypeError: Cannot read properties of undefined (reading 'ms')",
    file: 'src/duration.js',
    fix: [
      "'use strict';",
      '// Durations such as "5s" or "2h", in milliseconds.',
      'const UNITS = { ms: { ms: 1 }, s: { ms: 1000 }, m: { ms: 60000 }, h: { ms: 3600000 } };',
      'function parseDuration(text) {',
      '  const m = /^(\\d+)([a-z]+)$/.exec(text.trim());',
      '  if (!m || !UNITS[m[2]]) throw new SyntaxError(`not a duration: ${text}`);',
      '  return Number(m[1]) * UNITS[m[2]].ms;',
      '}',
      'module.exports = { parseDuration };',
      '',
    ].join('\n'),
    pr: 'parseDuration: refuse an unknown unit',
  },
  {
    cause: 'total-type-error',
    sentryId: '102',
    title: 'TypeError: Reduce of empty array with no initial value',
    file: 'src/report.js',
    fix: "'use strict';\n// The total of a list of durations, in milliseconds.\nfunction total(durations) {\n  return durations.reduce((a, b) => a + b, 0);\n}\nmodule.exports = { total };\n",
    pr: 'total: start the sum at 0',
  },
];

/** Per cause: file its issue, write the fix in its worktree, commit it, open its pull request, comment on its Sentry issue. */
function script(): ModelTurn[] {
  const turns: ModelTurn[] = [];
  for (const c of CAUSES) {
    turns.push(
      { tools: [['issue_file', { title: c.pr.replace(/:.*/, ' crashes in production'), body: `Sentry issue ${c.sentryId}: ${c.title}`, cause: c.cause }]] },
      { tools: [['write_file', { path: c.file, content: c.fix, cause: c.cause }]] },
      { tools: [['commit_fix', { cause: c.cause, message: c.pr }]] },
      { tools: [['pull_request', { cause: c.cause, title: c.pr, body: `The fix for ${c.title}.` }]] },
      { tools: [['sentry_comment', { cause: c.cause }]] },
    );
  }
  turns.push({ text: 'Filed an issue and opened a pull request per cause; each Sentry issue links them.' });
  return turns;
}

let tmp: string;
let suite: E2eSuite;
let sentry: SentryStandin;
let github: GitHubStandin;
let model: ModelServer;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-triage-e2e-sentry-pr-'));
  sentry = await startSentryStandin({ org: ORG, project: PROJECT, issues: nodeFixtureIssues() });
  github = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  model = await startScriptedModel(script());
  suite = await E2eSuite.start({ extraVsix: [await packageGitHubSignin(tmp)] });
});

after(async () => {
  await suite?.close();
  await Promise.all([sentry?.close(), github?.close(), model?.close()]);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Types into the open input box (a password box too) and presses Enter. */
async function typeIntoInputBox(s: E2eSession, title: RegExp, value: string): Promise<void> {
  const widget = s.page.locator('.quick-input-widget').filter({ visible: true });
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 15_000 });
  await widget.locator('.quick-input-box input').fill(value);
  await s.page.keyboard.press('Enter');
}

/**
 * The first pull request's approval: screenshot it, then Show Details, which shows the branch's
 * diff against its base (the fix the model wrote); the details are closed again and the same
 * question stays to be approved.
 */
async function showPullRequestDetails(s: E2eSession, message: string): Promise<void> {
  await s.screenshot('sentry-pr/pr-approval');
  await clickNotificationButton(s.page, exactly(message), 'Show Details');
  const fixLine = '+  if (!m || !UNITS[m[2]]) throw new SyntaxError(`not a duration: ${text}`);';
  await waitFor(
    async () => {
      for (const f of s.page.frames()) {
        const text = await f
          .locator('body')
          .innerText({ timeout: 1_000 })
          .catch(() => '');
        if (text.includes(fixLine) && text.includes(`${CAUSES[0].file}`)) return true;
      }
      return false;
    },
    { what: `Show Details of the pull request to show the branch's diff (${fixLine})`, timeoutMs: 30_000, intervalMs: 500 },
  );
  await s.screenshot('sentry-pr/pr-approval-details');
  await runCommand(s.page, 'View: Close Editor');
}

/** Approves each question until the done notification; screenshots the first pull-request approval. */
async function approveEach(s: E2eSession): Promise<{ approvals: string[]; done: string }> {
  const approvals: string[] = [];
  const either = new RegExp(`${APPROVAL.source}|${FINISHED.source}`);
  for (;;) {
    let quietSince = Date.now();
    const item = await waitFor(
      async () => {
        const errors = await errorNotifications(s.page, /Durable Triage/);
        if (errors.length > 0) throw new WaitAbortedError(`the extension showed an error: ${errors.join(' | ')}`);
        if (await hasNotification(s.page, either)) return waitForNotification(s.page, either, 5_000);
        if (Date.now() - quietSince > 5_000) {
          quietSince = Date.now();
          await openNotificationCenter(s.page).catch(() => undefined);
        }
        return undefined;
      },
      { what: `an approval or the done notification (approved so far: ${JSON.stringify(approvals)})`, timeoutMs: 60_000, intervalMs: 250 },
    );
    const message = await notificationMessage(item);
    if (FINISHED.test(message)) return { approvals, done: message };
    if (/approve pull_request\?/.test(message) && !approvals.some((a) => /approve pull_request\?/.test(a))) await showPullRequestDetails(s, message);
    approvals.push(await approveOne(s.page));
  }
}

test(
  'Sentry project → its groups in the pick → the run → each pull request approved in a notification → the Run panel links each cause to its Sentry issue, issue, branch, commit and PR',
  { timeout: 240_000 },
  async () => {
    const { remote, clone } = bareRemoteAndClone(FIXTURE, tmp);
    const started = Date.now();
    await suite.run(
      {
        scenario: 'sentry-pr',
        workspace: clone,
        extensionLogName: LOG_NAME,
        ...gitHubSigninServer(github, tmp),
        userSettings: {
          'durableTriage.crashes.sentry': `${ORG}/${PROJECT}`,
          'durableTriage.crashes.sentryUrl': sentry.url,
          'durableTriage.crashes.sentryLimit': 2,
          'durableTriage.model.provider': 'anthropic',
          'durableTriage.model.name': 'claude-sonnet-4-5',
          'durableTriage.model.baseUrl': model.url,
          'durableTriage.tracker': `github:${REPO}`,
          'durableTriage.pullRequests.enabled': true,
        },
      },
      async (s) => {
        // The tokens, as a person sets them: into the editor's secret storage.
        await runCommand(s.page, 'Durable Triage: Set API Key');
        await pickQuickItem(s.page, 'Anthropic');
        await typeIntoInputBox(s, /Anthropic API key/, ANTHROPIC_KEY);
        await waitForNotification(s.page, /the Anthropic API key is stored/, 15_000);
        await runCommand(s.page, 'Durable Triage: Set Sentry Token');
        await typeIntoInputBox(s, /Sentry auth token/, sentry.token);
        await waitForNotification(s.page, /the Sentry token is stored/, 15_000);

        await runCommand(s.page, CMD_START);
        await pickQuickItem(s.page, 'Sentry project…');
        const rows = await quickPickRows(s.page, CAUSES[0].cause, 30_000);
        for (const c of CAUSES)
          assert.ok(
            rows.some((r) => r.includes(c.cause) && r.includes(c.title)),
            `the pick shows ${c.cause} with its Sentry title "${c.title}": ${JSON.stringify(rows)}`,
          );
        assert.ok(!rows.some((r) => r.includes('ECONNREFUSED')), `sentryLimit 2: the third issue is not taken: ${JSON.stringify(rows)}`);
        await s.screenshot('sentry-pr/sentry-groups-pick');
        await pickQuickItem(s.page, 'Start Triage on these 2 crash groups');
        await pickQuickItem(s.page, 'Anthropic');
        // The tracker's token: the editor's GitHub (Enterprise) sign-in, allowed once for Durable Triage.
        await clickDialogButton(s.page, /'Durable Triage' wants to sign in using GitHub Enterprise Server/, 'Allow');

        const { approvals, done } = await approveEach(s);
        assert.deepEqual(
          approvals.map((a) => /approve (\S+)\?/.exec(a)?.[1]),
          ['issue_file', 'pull_request', 'issue_file', 'pull_request'],
          `an issue and a pull request approved per cause: ${JSON.stringify(approvals)}`,
        );
        assert.ok(approvals[1].includes(`Open pull request: ${CAUSES[0].pr}`), approvals[1]);
        assert.match(done, /finished: issues #\d+, #\d+ /);

        // GitHub and the remote: one issue, one branch and one pull request per cause.
        const pulls = github.pulls(REPO);
        assert.equal(pulls.length, CAUSES.length, `one pull request per cause: ${JSON.stringify(pulls.map((p) => p.head))}`);
        assert.equal(github.issues(REPO).filter((i) => !i.pullRequest).length, CAUSES.length, 'one issue per cause');
        const pushed = branches(remote).filter((b) => b !== 'main');
        assert.deepEqual(pushed, pulls.map((p) => p.head).sort(), 'the remote has exactly the pull requests’ branches');

        // The Run panel, per cause: its Sentry issue, issue, branch, commit and pull request, as links.
        await waitForRunPanel(s.page);
        const list = runPanel(s.page).locator('ul.causes');
        await list.waitFor({ state: 'visible', timeout: 30_000 });
        for (const c of CAUSES) {
          const pull = pulls.find((p) => p.head.startsWith(`triage/${c.cause}-`));
          assert.ok(pull, `a pull request from a branch of ${c.cause}: ${JSON.stringify(pulls.map((p) => p.head))}`);
          assert.equal(pull.draft, true, 'a draft by default');
          const commit = git(remote, 'rev-parse', `refs/heads/${pull.head}`);
          assert.equal(git(remote, 'show', `${commit}:${c.file}`) + '\n', c.fix, `the pushed commit holds the fix of ${c.cause}`);
          const issue = github.issues(REPO).find((i) => !i.pullRequest && (i.body ?? '').includes(`Sentry issue ${c.sentryId}:`));
          assert.ok(issue, `the issue of ${c.cause}`);
          const row = list.locator('li').filter({ has: runPanel(s.page).locator('strong', { hasText: c.cause }) });
          const text = (await row.innerText()).replace(/\s+/g, ' ');
          assert.ok(text.includes(`Sentry DURATIONS-${c.sentryId} (commented)`), `${c.cause}: ${text}`);
          assert.ok(text.includes(pull.head), `${c.cause} names its branch ${pull.head}: ${text}`);
          assert.ok(text.includes(commit.slice(0, 12)), `${c.cause} names its commit ${commit.slice(0, 12)}: ${text}`);
          const hrefs = await row.locator('a').evaluateAll((as) => as.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '']));
          assert.deepEqual(
            hrefs,
            [
              [`DURATIONS-${c.sentryId}`, `${sentry.url}/organizations/${ORG}/issues/${c.sentryId}/`],
              [`#${issue.number}`, `https://github.com/${REPO}/issues/${issue.number}`], // the html_url GitHub (the stand-in) answered
              [`PR #${pull.number}`, `https://github.com/${REPO}/pull/${pull.number}`],
            ],
            `${c.cause}: the Sentry issue, the issue and the pull request as links`,
          );
          assert.equal(sentry.comments(c.sentryId).length, 1, `one comment on Sentry issue ${c.sentryId}`);
        }
        assert.equal(git(s.workspace, 'status', '--porcelain'), '', "the person's checkout is untouched");
        // The final screen: the Run panel alone, at its Per cause section.
        await runCommand(s.page, 'Notifications: Clear All Notifications');
        await runCommand(s.page, 'View: Close Primary Side Bar');
        await scrollPanelTo(s.page, 'ul.causes');
        await s.screenshot('sentry-pr/run-panel-per-cause');
        console.log(`# sentry-pr scenario: ${Math.round((Date.now() - started) / 1000)} s`);
      },
    );
  },
);
