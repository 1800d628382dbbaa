/**
 * Where a run started in the editor files its issues, and the GitHub token it files with. The
 * tracker is the setting durableTriage.tracker, or (unset) a quick pick that offers the
 * repository of the workspace's `origin` remote first when it is on GitHub. The token comes from
 * VS Code's built-in GitHub sign-in (scope `repo`) each time a run starts or resumes; Durable
 * Triage never stores it (the run saves only "github:OWNER/REPO").
 */
import * as vscode from 'vscode';
import { BadInputError } from '../core/errors';
import type { ExtensionSettings } from './logic/settings';
import { originRemoteUrl } from '../tracker/github/origin';
import { GITHUB_API_DEFAULT, githubSpecOfRemote } from '../tracker/github/spec';
import { parseTrackerSpec } from '../tracker/spec';

export interface TrackerChoice {
  trackerUrl?: string;
}

export interface GitHubAccess {
  githubToken?: string;
  githubApiUrl?: string;
}

/** The tracker for a new run; undefined when the user dismissed the question. */
export async function chooseTracker(workspace: string, s: ExtensionSettings): Promise<TrackerChoice | undefined> {
  if (s.tracker) return s.tracker === 'embedded' ? {} : { trackerUrl: s.tracker };
  const origin = originRemoteUrl(workspace);
  const fromOrigin = origin ? githubSpecOfRemote(origin) : undefined;
  if (!fromOrigin) return {};
  type Item = vscode.QuickPickItem & { spec?: string };
  const items: Item[] = [
    { label: fromOrigin, description: 'the origin remote', detail: 'GitHub Issues of this repository (you sign in with your GitHub account)', spec: fromOrigin },
    { label: 'Embedded tracker', detail: "this state folder's own tracker; nobody else sees its issues" },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Durable Triage: where should the issues be filed?', placeHolder: 'Set durableTriage.tracker to stop being asked' });
  if (!pick) return undefined;
  return pick.spec ? { trackerUrl: pick.spec } : {};
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
    throw new BadInputError(`Sign in to GitHub to file issues in ${trackerUrl} (${(e as Error).message}), or pick another tracker (setting durableTriage.tracker).`);
  }
  return { githubToken: session.accessToken, ...(enterprise ? { githubApiUrl: apiUrl } : {}) };
}
