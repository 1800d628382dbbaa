/**
 * The durableTriage.* settings, read through a getter and checked: each value that is not
 * usable is left at its default and reported in `problems` (shown once as a warning), so a
 * typo in settings.json never starts a run with a limit the user did not mean.
 */
import type { Price } from '../../model/prices';
import { parseTrackerSpec } from '../../triage/tracker/github/spec';

export type ProviderSetting = 'recorded' | 'vscode-lm' | 'anthropic' | 'openai';
export const PROVIDERS: readonly ProviderSetting[] = ['recorded', 'vscode-lm', 'anthropic', 'openai'];

/** The run limits (the same shape as the loop's Limits). 0 in a setting means "no limit". */
export interface LimitSettings {
  maxTurns?: number;
  maxDollars?: number;
  maxTokens?: number;
  maxRestarts: number;
}

export interface ExtensionSettings {
  /** Empty: the extension's storage for this workspace. */
  stateDirectory: string;
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
}

export const DEFAULT_MAX_RESTARTS = 10;
export const DEFAULT_APPROVAL_TOOLS: readonly string[] = ['issue_file'];

export type SettingsGetter = (key: string) => unknown;

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isPrice(v: unknown): v is Price {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  const ok = (x: unknown): boolean => isNum(x) && x >= 0;
  return ok(p.input) && ok(p.output) && (p.cacheRead === undefined || ok(p.cacheRead)) && (p.cacheWrite === undefined || ok(p.cacheWrite));
}

export function readSettings(get: SettingsGetter): { settings: ExtensionSettings; problems: string[] } {
  const problems: string[] = [];
  const bad = (key: string, want: string, v: unknown): void => {
    problems.push(`durableTriage.${key} should be ${want}, not ${JSON.stringify(v)}; using the default.`);
  };
  const str = (key: string): string | undefined => {
    const v = get(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      bad(key, 'a string', v);
      return undefined;
    }
    return v.trim() === '' ? undefined : v.trim();
  };
  const limit = (key: string): number | undefined => {
    const v = get(key);
    if (v === undefined || v === null) return undefined;
    if (!isNum(v) || v < 0) {
      bad(key, 'a number of 0 or more (0 = no limit)', v);
      return undefined;
    }
    return v === 0 ? undefined : v;
  };

  const limits: LimitSettings = { maxRestarts: DEFAULT_MAX_RESTARTS };
  const turns = limit('budget.maxTurns');
  const dollars = limit('budget.maxDollars');
  const tokens = limit('budget.maxTokens');
  if (turns !== undefined) limits.maxTurns = Math.floor(turns);
  if (dollars !== undefined) limits.maxDollars = dollars;
  if (tokens !== undefined) limits.maxTokens = Math.floor(tokens);
  const restarts = get('maxRestarts');
  if (restarts !== undefined && restarts !== null) {
    if (isNum(restarts) && restarts >= 0 && Number.isInteger(restarts)) limits.maxRestarts = restarts;
    else bad('maxRestarts', 'a whole number of 0 or more', restarts);
  }

  let approvalTools = [...DEFAULT_APPROVAL_TOOLS];
  const tools = get('approval.tools');
  if (tools !== undefined && tools !== null) {
    if (Array.isArray(tools) && tools.every((t) => typeof t === 'string')) approvalTools = tools.map((t: string) => t.trim()).filter((t) => t !== '');
    else bad('approval.tools', 'a list of tool names', tools);
  }

  let provider: ProviderSetting = 'recorded';
  const p = get('model.provider');
  if (p !== undefined && p !== null && p !== '') {
    if (typeof p === 'string' && (PROVIDERS as readonly string[]).includes(p)) provider = p as ProviderSetting;
    else bad('model.provider', `one of ${PROVIDERS.join(', ')}`, p);
  }

  let keys = true;
  const k = get('keys');
  if (k !== undefined && k !== null) {
    if (typeof k === 'boolean') keys = k;
    else bad('keys', 'true or false', k);
  }

  const prices: Record<string, Price> = {};
  const pr = get('prices');
  if (pr !== undefined && pr !== null) {
    if (typeof pr === 'object' && !Array.isArray(pr)) {
      for (const [model, price] of Object.entries(pr as Record<string, unknown>)) {
        if (isPrice(price)) prices[model] = price;
        else bad(`prices["${model}"]`, 'an object {input, output[, cacheRead, cacheWrite]} of dollars per million tokens', price);
      }
    } else bad('prices', 'an object of model name to price', pr);
  }

  const settings: ExtensionSettings = { stateDirectory: str('stateDirectory') ?? '', limits, approvalTools, provider, keys, prices };
  const modelName = str('model.name');
  const baseUrl = str('model.baseUrl');
  const die = str('debug.dieAfterTool');
  if (modelName) settings.modelName = modelName;
  if (baseUrl) {
    try {
      new URL(baseUrl);
      settings.baseUrl = baseUrl;
    } catch {
      bad('model.baseUrl', 'a URL such as http://127.0.0.1:11434/v1', baseUrl);
    }
  }
  if (die) settings.dieAfterTool = die;
  const tracker = str('tracker');
  if (tracker) {
    try {
      parseTrackerSpec(tracker);
      settings.tracker = tracker;
    } catch {
      bad('tracker', '"embedded", github:OWNER/REPO or a tracker URL', tracker);
    }
  }
  const testCommand = str('testCommand');
  if (testCommand) settings.testCommand = testCommand;
  return { settings, problems };
}

