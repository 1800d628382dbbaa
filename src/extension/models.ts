/**
 * The model a run uses in the editor: built from the model pick and the settings for a new
 * run, and from the run's saved config for a resumed one (logic/resume-model.ts). API keys
 * come from the secret store (or the environment: model/provider-config.ts); a missing key is
 * asked for right away.
 */
import * as vscode from 'vscode';
import type { ModelChoice } from '../model/factory';
import { PriceTable } from '../model/prices';
import { BadInputError } from '../core/errors';
import { PROVIDER_RULES, apiKeyFor, baseUrlFor, needsKey } from '../model/provider-config';
import type { ExtensionSettings, ProviderSetting } from './logic/settings';
import { resumeModel } from './logic/resume-model';
import type { ApiKeys, KeyedProvider } from './secrets';
import { VsCodeLmProvider, selectLmModel } from './lm-provider';
import type { ModelOption } from './run-manager';

export interface ModelDeps {
  keys: ApiKeys;
  log: vscode.LogOutputChannel;
}

async function keyed(provider: KeyedProvider, model: string | undefined, baseUrl: string | undefined, d: ModelDeps): Promise<ModelChoice> {
  const choice: ModelChoice = { provider };
  if (model) choice.model = model;
  if (baseUrl) choice.baseUrl = baseUrl;
  // A base URL the factory would refuse is refused before a key is asked for.
  const url = baseUrlFor(provider, choice, process.env);
  let key = await d.keys.get(provider);
  if (!apiKeyFor(provider, key, process.env) && needsKey(provider, url)) {
    await d.keys.prompt(provider);
    key = await d.keys.get(provider);
    if (!key) throw new BadInputError(`No ${PROVIDER_RULES[provider].label} API key: run "Durable Triage: Set API Key", or pick another model.`);
  }
  if (key) choice.apiKey = key;
  return choice;
}

function lm(chat: vscode.LanguageModelChat, s: ExtensionSettings, d: ModelDeps): VsCodeLmProvider {
  return new VsCodeLmProvider(chat, new PriceTable(s.prices), (m) => d.log.warn(m));
}

/** The model for a new run. undefined: the job's default, the task's recording. */
export async function modelForStart(provider: ProviderSetting, s: ExtensionSettings, d: ModelDeps): Promise<ModelOption> {
  switch (provider) {
    case 'recorded':
      return undefined;
    case 'vscode-lm':
      return lm(await selectLmModel(s.modelName), s, d);
    case 'anthropic':
    case 'openai':
      return keyed(provider, s.modelName, s.baseUrl, d);
  }
}

/** The model a saved run started with, found again. */
export async function modelForResume(
  config: { provider: string; model: string; options?: Record<string, string> },
  s: ExtensionSettings,
  d: ModelDeps,
): Promise<ModelOption> {
  const plan = resumeModel(config);
  switch (plan.kind) {
    case 'recorded':
      return undefined;
    case 'vscode-lm':
      return lm(await selectLmModel(plan.model), s, d);
    case 'keyed':
      return keyed(plan.provider, plan.model, plan.baseUrl ?? s.baseUrl, d);
    case 'unknown':
      throw new BadInputError(`The run was started with model provider "${plan.provider}", which this editor does not know; resume it where it was started.`);
  }
}
