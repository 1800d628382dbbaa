/**
 * Where a run started in the editor files its issues, and the GitHub token it files with. The
 * tracker is the setting durableTriage.tracker, or (unset) a quick pick asked at every Start
 * (logic/tracker-choice.ts), also where the workspace has no GitHub `origin`. The token comes from
 * VS Code's built-in GitHub sign-in (scope `repo`) each time a run starts or resumes; Durable
 * Triage never stores it (the run saves only "github:OWNER/REPO").
 */
import * as vscode from 'vscode';
import { BadInputError } from '../core/errors';
import type { ExtensionSettings } from './logic/settings';
import { originRemoteUrl } from '../tracker/github/origin';
import { GITHUB_API_DEFAULT, githubSpecOfRemote } from '../tracker/github/spec';
import { parseTrackerSpec } from '../tracker/spec';
import { otherRepoSpec, trackerPlan, type TrackerChoice } from './logic/tracker-choice';

export type { TrackerChoice } from './logic/tracker-choice';

export interface GitHubAccess {
  githubToken?: string;
  githubApiUrl?: string;
}

/** The tracker for a new run; undefined when the user dismissed the question. */
export async function chooseTracker(workspace: string, s: ExtensionSettings, ownReports: boolean): Promise<TrackerChoice | undefined> {
  const origin = s.tracker ? undefined : originRemoteUrl(workspace);
  const plan = trackerPlan(s.tracker, origin ? githubSpecOfRemote(origin) : undefined, ownReports);
  if (!plan.ask) return plan.choice;
  const pick = await vscode.window.showQuickPick(plan.items, {
    title: 'Durable Triage: where should the issues be filed?',
    placeHolder: 'Set durableTriage.tracker to stop being asked',
  });
  if (!pick) return undefined;
  if (pick.choice === 'embedded') return {};
  if (pick.spec) return { trackerUrl: pick.spec };
  const typed = await vscode.window.showInputBox({
    title: 'Durable Triage: the GitHub repository to file issues in',
    prompt: 'OWNER/REPO',
    placeHolder: 'octo-org/octo-repo',
    validateInput: (v) => {
      const r = otherRepoSpec(v);
      return 'problem' in r ? r.problem : undefined;
    },
  });
  if (typed === undefined) return undefined;
  const r = otherRepoSpec(typed);
  return 'spec' in r ? { trackerUrl: r.spec } : undefined;
}

/** The token (and API base) for a GitHub tracker, from VS Code's GitHub sign-in; nothing for other trackers. */
export async function githubAccess(trackerUrl: string | undefined): Promise<GitHubAccess> {
  if (!trackerUrl || parseTrackerSpec(trackerUrl).kind !== 'github') return {};
  const apiUrl = (process.env.GITHUB_API_URL ?? '').trim().replace(/\/+$/, '');
  const enterprise = apiUrl !== '' && apiUrl !== GITHUB_API_DEFAULT;
  let session: vscode.AuthenticationSession;
  try {
    session = await vscode.authentication.getSession(enterprise ? 'github-enterprise' : 'github', ['repo'], { createIfNone: true });
  } catch (e) {
    throw new BadInputError(
      `Sign in to GitHub to file issues in ${trackerUrl} (${(e as Error).message}), or pick another tracker (setting durableTriage.tracker).`,
    );
  }
  return { githubToken: session.accessToken, ...(enterprise ? { githubApiUrl: apiUrl } : {}) };
}
