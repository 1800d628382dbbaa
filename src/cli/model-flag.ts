/**
 * `--model recorded|anthropic|openai [--model-name NAME] [--base-url URL]`: the model a new run
 * is started with (undefined: the recorded model).
 */
import { BadInputError } from '../core/errors';
import type { ModelChoice } from '../model/factory';
import { checkBaseUrl } from '../model/base-url';
import type { FlagSpec, FlagValues } from './flags';

export const MODEL_FLAGS: FlagSpec = { model: { type: 'string' }, 'model-name': { type: 'string' }, 'base-url': { type: 'string' } };

export function modelFromFlags(v: FlagValues): ModelChoice | undefined {
  if (v.model === undefined) return undefined;
  if (!['recorded', 'anthropic', 'openai'].includes(v.model as string))
    throw new BadInputError(`--model must be recorded, anthropic or openai, not "${v.model}".`);
  const model: ModelChoice = { provider: v.model as ModelChoice['provider'] };
  if (v['model-name']) model.model = v['model-name'] as string;
  if (v['base-url']) {
    model.baseUrl = checkBaseUrl(v['base-url'] as string, '--base-url');
    model.baseUrlFrom = '--base-url';
  }
  return model;
}
