/**
 * The durableTriage.* settings, read through a getter and checked (a zod schema each): each
 * value that is not usable is left at its default and reported in `problems` (shown once as a
 * warning), so a typo in settings.json never starts a run with a limit the user did not mean.
 */
import { z } from 'zod';
import { PriceSchema, type Price } from '../../model/prices';
import { parseTrackerSpec } from '../../tracker/spec';
import { hasUserinfoPassword, isPgUrl, redactUrl, secretParams } from '../../store/store-url';
import { DEFAULT_LIMITS } from '../../agent/budget';
import { baseUrlProblem } from '../../model/base-url';
import { parseSentrySource, sentrySettings } from '../../crashes/sentry/source';
import { DEFAULT_DEPS, DEPS_MODES, DEPS_NETWORK, type DepsOptions } from '../../deps/options';

export const PROVIDERS = ['recorded', 'vscode-lm', 'anthropic', 'openai'] as const;
export type ProviderSetting = (typeof PROVIDERS)[number];

/** The run limits (the same shape as the loop's Limits). 0 in a setting means "no limit" (Infinity); turns and dollars unset are DEFAULT_LIMITS. */
export interface LimitSettings {
  maxTurns?: number;
  maxDollars?: number;
  maxTokens?: number;
  maxRestarts: number;
}

export interface ExtensionSettings {
  /** Empty: the extension's storage for this workspace. */
  stateDirectory: string;
  /** A shared PostgreSQL run store (postgres://user@host/db?...), without its password; absent: the local state folder. */
  store?: string;
  limits: LimitSettings;
  /** Of the tools that ask for approval, the ones the user is asked about; the others are approved without asking. */
  approvalTools: string[];
  provider: ProviderSetting;
  modelName?: string;
  baseUrl?: string;
  keys: boolean;
  prices: Record<string, Price>;
  /** Test-only crash aid: SIGKILL the extension host right after the first call of this tool returns. */
  dieAfterTool?: string;
  /** "embedded", "github:OWNER/REPO" or a tracker URL; unset: ask, offering the origin remote's GitHub repository. */
  tracker?: string;
  /** run_tests runs this instead of the workspace's detected test runner. */
  testCommand?: string;
  /** durableTriage.crashes.sentry*: the Sentry project Start Triage offers (its token is in secret storage). */
  sentry?: SentrySetting;
  /** durableTriage.pullRequests.*: a branch and pull request per crash group (`--pull-requests`); absent: off. */
  pullRequests?: PullRequestSetting;
  /** durableTriage.mcp.servers: MCP servers by name, each entry as written in VS Code's mcp.json `servers` (checked when a run starts). */
  mcpServers?: Record<string, unknown>;
}

/** What `--pull-requests`, `--base`, `--remote` and `--draft` say on the command line. */
export interface PullRequestSetting {
  base?: string;
  remote?: string;
  draft: boolean;
  /** durableTriage.pullRequests.dependencies, .lifecycleScripts, .network: how each cause's worktree gets the tests' dependencies (--deps*). */
  deps: DepsOptions;
}

export interface SentrySetting {
  /** "sentry:ORG/PROJECT". */
  crashes: string;
  baseUrl: string;
  query: string;
  limit: number;
}

function isTrackerSpec(t: string): boolean {
  try {
    parseTrackerSpec(t);
    return true;
  } catch {
    return false;
  }
}

export const DEFAULT_MAX_RESTARTS = 10;
/** Filing an issue and opening a pull request wait for a person's yes unless the setting says otherwise. */
export const DEFAULT_APPROVAL_TOOLS: readonly string[] = ['issue_file', 'pull_request'];

export type SettingsGetter = (key: string) => unknown;

/** A limit setting: a number of 0 or more, 0 meaning "no limit". */
const LimitSchema = z
  .number()
  .nonnegative()
  .transform((n) => (n === 0 ? Infinity : n));
/** A text setting, trimmed; empty means unset. */
const TextSchema = z.string().transform((s) => (s.trim() === '' ? undefined : s.trim()));

export function readSettings(get: SettingsGetter): { settings: ExtensionSettings; problems: string[] } {
  const problems: string[] = [];
  /** The setting checked by its schema: undefined when unset, or (reported) when not usable. */
  const check = <T>(key: string, v: unknown, schema: z.ZodType<T, unknown>, want: string): T | undefined => {
    if (v === undefined || v === null) return undefined;
    const r = schema.safeParse(v);
    if (r.success) return r.data;
    problems.push(`durableTriage.${key} should be ${want}, not ${JSON.stringify(v)}; using the default.`);
    return undefined;
  };
  const read = <T>(key: string, schema: z.ZodType<T, unknown>, want: string): T | undefined => check(key, get(key), schema, want);
  const limit = (key: string): number | undefined => read(key, LimitSchema, 'a number of 0 or more (0 = no limit)');
  const text = (key: string): string | undefined => read(key, TextSchema, 'a string');

  const limits: LimitSettings = { maxRestarts: read('maxRestarts', z.number().int().nonnegative(), 'a whole number of 0 or more') ?? DEFAULT_MAX_RESTARTS };
  const turns = limit('budget.maxTurns');
  const dollars = limit('budget.maxDollars');
  const tokens = limit('budget.maxTokens');
  limits.maxTurns = turns === undefined ? DEFAULT_LIMITS.maxTurns : Math.floor(turns);
  limits.maxDollars = dollars ?? DEFAULT_LIMITS.maxDollars;
  if (tokens !== undefined && tokens !== Infinity) limits.maxTokens = Math.floor(tokens);

  const tools = read('approval.tools', z.array(z.string()), 'a list of tool names');
  const approvalTools = tools ? tools.map((t) => t.trim()).filter((t) => t !== '') : [...DEFAULT_APPROVAL_TOOLS];
  const provider = get('model.provider') === '' ? undefined : read('model.provider', z.enum(PROVIDERS), `one of ${PROVIDERS.join(', ')}`);
  const keys = read('keys', z.boolean(), 'true or false') ?? true;

  const prices: Record<string, Price> = {};
  const table = read('prices', z.record(z.string(), z.unknown()), 'an object of model name to price');
  for (const [model, price] of Object.entries(table ?? {})) {
    const p = check(`prices["${model}"]`, price, PriceSchema, 'an object {input, output[, cacheRead, cacheWrite]} of dollars per million tokens');
    if (p) prices[model] = p;
  }

  const settings: ExtensionSettings = { stateDirectory: text('stateDirectory') ?? '', limits, approvalTools, provider: provider ?? 'recorded', keys, prices };
  const modelName = text('model.name');
  const baseUrl = baseUrlSetting(text('model.baseUrl'), problems);
  const die = text('debug.dieAfterTool');
  if (modelName) settings.modelName = modelName;
  if (baseUrl) settings.baseUrl = baseUrl;
  if (die) settings.dieAfterTool = die;
  const tracker = read(
    'tracker',
    TextSchema.refine((t) => t === undefined || isTrackerSpec(t)),
    '"embedded", github:OWNER/REPO or a tracker URL',
  );
  if (tracker) settings.tracker = tracker;
  const testCommand = text('testCommand');
  if (testCommand) settings.testCommand = testCommand;
  const sentry = sentrySetting(text('crashes.sentry'), get, problems);
  if (sentry) settings.sentry = sentry;
  const pullRequests = pullRequestSetting(text, read); // read (and checked) even when off
  if (read('pullRequests.enabled', z.boolean(), 'true or false')) settings.pullRequests = pullRequests;
  const mcpServers = read('mcp.servers', z.record(z.string(), z.unknown()), 'an object of server name to server (the "servers" of an mcp.json)');
  if (mcpServers && Object.keys(mcpServers).length > 0) settings.mcpServers = mcpServers;
  const store = text('store');
  if (store) {
    const checked = checkStoreSetting(store);
    if (checked.ok) settings.store = store;
    else problems.push(`durableTriage.store ${checked.why}; using the local state folder.`);
  }
  return { settings, problems };
}

/** The model base URL setting, when usable; otherwise reported (without repeating a user:password@ part) and left unset. */
function baseUrlSetting(url: string | undefined, problems: string[]): string | undefined {
  if (url === undefined) return undefined;
  const problem = baseUrlProblem(url);
  if (problem === undefined) return url;
  problems.push(`durableTriage.model.baseUrl ${problem}; using the default.`);
  return undefined;
}

/**
 * A store setting must be a postgres:// URL, and must hold no password: neither in its userinfo
 * nor as a query parameter (`?password=`, `?sslpassword=`, ...); the store's password goes to the
 * secret storage. The refusal shows the URL with its secrets redacted.
 */
export function checkStoreSetting(s: string): { ok: true } | { ok: false; why: string } {
  if (!isPgUrl(s)) return { ok: false, why: `should be a postgres://user@host/database URL, not ${JSON.stringify(redactUrl(s))}` };
  const where = [...(hasUserinfoPassword(s) ? ['user:password@'] : []), ...secretParams(s).map((k) => `?${k}=`)];
  if (where.length > 0) {
    return {
      ok: false,
      why: `holds a password (${where.join(', ')}); remove it from the setting and store it with "Durable Triage: Set Store Password" (or PGPASSWORD)`,
    };
  }
  return { ok: true };
}

/** The Sentry settings, when a project is set and every one is usable; otherwise reported and unset. */
function sentrySetting(project: string | undefined, get: SettingsGetter, problems: string[]): SentrySetting | undefined {
  const url = get('crashes.sentryUrl');
  const query = get('crashes.sentryQuery');
  const limit = get('crashes.sentryLimit');
  if (project === undefined) return undefined;
  const crashes = `sentry:${project.replace(/^sentry:/, '')}`;
  try {
    parseSentrySource(crashes);
    const s = sentrySettings({
      ...(typeof url === 'string' ? { baseUrl: url } : {}),
      ...(typeof query === 'string' && query.trim() !== '' ? { query: query.trim() } : {}),
      ...(typeof limit === 'number' ? { limit } : {}),
    });
    return { crashes, ...s };
  } catch (e) {
    problems.push(`durableTriage.crashes.sentry*: ${(e as Error).message} Sentry is not offered as a crash source until it is fixed.`);
    return undefined;
  }
}

/** The pull-request settings of a run with pull requests on (a remote's name is checked when the run starts). */
function pullRequestSetting(
  text: (key: string) => string | undefined,
  read: <T>(key: string, schema: z.ZodType<T, unknown>, want: string) => T | undefined,
): PullRequestSetting {
  const base = text('pullRequests.base');
  const remote = text('pullRequests.remote');
  const deps: DepsOptions = {
    mode:
      read(
        'pullRequests.dependencies',
        z.enum(DEPS_MODES),
        DEPS_MODES.map((m) => `"${m}"`)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1'),
      ) ?? DEFAULT_DEPS.mode,
    scripts: read('pullRequests.lifecycleScripts', z.boolean(), 'true or false') ?? DEFAULT_DEPS.scripts,
    network:
      read(
        'pullRequests.network',
        z.enum(DEPS_NETWORK),
        DEPS_NETWORK.map((m) => `"${m}"`)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1'),
      ) ?? DEFAULT_DEPS.network,
  };
  return { ...(base ? { base } : {}), ...(remote ? { remote } : {}), draft: read('pullRequests.draft', z.boolean(), 'true or false') ?? true, deps };
}
