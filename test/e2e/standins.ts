// The services a scenario's editor talks to on 127.0.0.1, loaded from the unit tests' compiled
// stand-ins (out/test/, built by `npm run build`; test/e2e compiles on its own, so they are
// required at run time and typed here by what the scenarios use): Sentry's REST API, GitHub's,
// and a model that answers Anthropic's Messages API from a script.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './paths';

const OUT_TEST = path.join(REPO_ROOT, 'out', 'test');

/* eslint-disable @typescript-eslint/no-require-imports -- compiled by the main tsconfig, outside this project's rootDir */
function load<T>(rel: string): T {
  const file = path.join(OUT_TEST, rel);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first (the real-editor tests use the unit tests' stand-ins)`);
  return require(file) as T;
}

export interface StandinFrame {
  absPath: string;
  function: string;
  lineNo: number;
  inApp: boolean;
}

export interface StandinSentryIssue {
  id: string;
  title: string;
  culprit: string;
  count: number;
  userCount: number;
  type: string;
  value: string;
  frames: StandinFrame[];
}

export interface SentryStandin {
  url: string;
  token: string;
  requests: { method: string; path: string; authorization: string | undefined }[];
  comments(issueId: string): { id: string; text: string }[];
  close(): Promise<void>;
}

export interface GitHubStandin {
  /** The API base, e.g. http://127.0.0.1:PORT/api/v3 */
  url: string;
  token: string;
  issues(repo: string): { number: number; title: string; body: string | null; pullRequest?: boolean }[];
  pulls(repo: string): { number: number; head: string; base: string; draft: boolean; title: string; body: string | null }[];
  close(): Promise<void>;
}

export interface ModelServer {
  url: string;
  requests: unknown[];
  close(): Promise<void>;
}

/** One scripted reply of the model: tool calls (name, input) or a text. */
export type ModelTurn = { tools: [string, Record<string, unknown>][] } | { text: string };

export function startSentryStandin(o: { org: string; project: string; issues: StandinSentryIssue[]; token?: string }): Promise<SentryStandin> {
  return load<{ startSentryStandin: (x: typeof o) => Promise<SentryStandin> }>('support/sentry-standin.js').startSentryStandin(o);
}

/** The node fixture repository's Sentry issues (test/support/sentry-issues.ts). */
export function nodeFixtureIssues(): StandinSentryIssue[] {
  return load<{ NODE_FIXTURE_ISSUES: StandinSentryIssue[] }>('support/sentry-issues.js').NODE_FIXTURE_ISSUES.map((i) => ({ ...i }));
}

export function startGitHubStandin(o: { repos: string[]; prefix?: string }): Promise<GitHubStandin> {
  return load<{ startGitHubStandin: (x: typeof o) => Promise<GitHubStandin> }>('support/github-standin.js').startGitHubStandin(o);
}

type Block = { text?: string[]; tool?: { id: string; name: string; parts: string[] } };

/** A model on 127.0.0.1 answering each Messages API request with the next turn of the script (streamed, as Anthropic does). */
export function startScriptedModel(turns: ModelTurn[]): Promise<ModelServer> {
  const { anthropicFrames } = load<{ anthropicFrames: (b: Block[]) => string[] }>('model/support/wire.js');
  const { startServer } = load<{ startServer: (a: { kind: 'sse'; frames: string[] }[]) => Promise<ModelServer> }>('model/support/fake-server.js');
  let id = 0;
  return startServer(
    turns.map((t) => ({
      kind: 'sse',
      frames: anthropicFrames(
        'text' in t ? [{ text: [t.text] }] : t.tools.map(([name, input]) => ({ tool: { id: `toolu_${++id}`, name, parts: [JSON.stringify(input)] } })),
      ),
    })),
  );
}
