/**
 * Where a new run files its issues. The setting durableTriage.tracker decides when set; else
 * Start asks, every time: the repository of the workspace's GitHub `origin` first when there is
 * one, the embedded tracker, or another GitHub repository typed as OWNER/REPO. A bundled task's
 * sample copy without a GitHub origin files into the embedded tracker without a question (its
 * checks read that tracker); a user's own crash folder is always asked about.
 */
import { parseTrackerSpec } from '../../tracker/spec';

export interface TrackerChoice {
  trackerUrl?: string;
}

export type TrackerItemKind = 'origin' | 'embedded' | 'other';
export interface TrackerItem {
  label: string;
  description: string;
  detail: string;
  choice: TrackerItemKind;
  spec?: string;
}

export type TrackerPlan = { ask: false; choice: TrackerChoice } | { ask: true; items: TrackerItem[] };

export const OTHER_REPO_LABEL = 'Another GitHub repository…';

/**
 * `setting`: durableTriage.tracker; `origin`: github:OWNER/REPO of the origin remote, when it is on
 * GitHub; `ownReports`: the run triages the user's own crash folder (not a bundled task's sample).
 */
export function trackerPlan(setting: string | undefined, origin: string | undefined, ownReports: boolean): TrackerPlan {
  if (setting) return { ask: false, choice: setting === 'embedded' ? {} : { trackerUrl: setting } };
  if (!origin && !ownReports) return { ask: false, choice: {} };
  const embedded: TrackerItem = {
    label: 'Embedded tracker',
    description: origin ? '' : 'no GitHub origin remote here',
    detail: "this state folder's own tracker; nobody else sees its issues",
    choice: 'embedded',
  };
  const other: TrackerItem = {
    label: OTHER_REPO_LABEL,
    description: '',
    detail: 'GitHub Issues of a repository you name (OWNER/REPO; you sign in with your GitHub account)',
    choice: 'other',
  };
  if (!origin) return { ask: true, items: [embedded, other] };
  const fromOrigin: TrackerItem = {
    label: origin,
    description: 'the origin remote',
    detail: 'GitHub Issues of this repository (you sign in with your GitHub account)',
    choice: 'origin',
    spec: origin,
  };
  return { ask: true, items: [fromOrigin, embedded, other] };
}

/** The typed repository as a tracker spec; a message for the input box when it is not OWNER/REPO. */
export function otherRepoSpec(typed: string): { spec: string } | { problem: string } {
  const t = typed
    .trim()
    .replace(/^github:/, '')
    .replace(/^https:\/\/github\.com\//, '')
    .replace(/\/+$/, '');
  const spec = `github:${t}`;
  try {
    if (parseTrackerSpec(spec).kind === 'github') return { spec };
  } catch {
    // told below
  }
  return { problem: 'Type the repository as OWNER/REPO, e.g. octo-org/octo-repo.' };
}
