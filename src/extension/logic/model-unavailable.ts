/**
 * No VS Code language model to run with: the stop's one short line and its ways on. At Start the
 * user chooses another model (the task already picked is kept) or sets an API key; the recorded
 * demo is suggested only where the task can use it (a bundled task, not a crash folder).
 */
import { BadInputError } from '../../core/errors';
import { PREFIX } from './texts';
import { noLinks } from './no-links';

export const MODEL_BUTTONS = { choose: 'Choose Another Model', setKey: 'Set API Key' } as const;
export type ModelButton = (typeof MODEL_BUTTONS)[keyof typeof MODEL_BUTTONS];

/** selectLmModel found no chat model (`wanted` undefined), or none by the name `wanted`. */
export class LanguageModelUnavailableError extends BadInputError {
  override readonly name = 'LanguageModelUnavailableError';
  constructor(
    readonly wanted: string | undefined,
    readonly available: readonly string[],
  ) {
    super(lmUnavailableText(wanted, available, false));
  }
}

/** The text without the prefix (the notification adds it once). */
export function lmUnavailableText(wanted: string | undefined, available: readonly string[], recordedAllowed: boolean): string {
  if (wanted && available.length > 0) {
    return `the VS Code language model "${wanted}" is not available (there are: ${available.join(', ')}); set durableTriage.model.name to one of them, or choose another model.`;
  }
  const others = recordedAllowed ? 'choose another model (the recorded demo needs none)' : 'choose another model';
  return `no VS Code language model: sign in to a chat extension (e.g. GitHub Copilot) or ${others}.`;
}

export interface ModelStopView {
  message: string;
  buttons: ModelButton[];
}

/** At Start (the model pick can be shown again); `recordedAllowed`: the picked task has a recording. */
export function modelUnavailableView(e: LanguageModelUnavailableError, recordedAllowed: boolean): ModelStopView {
  return { message: noLinks(`${PREFIX}: ${lmUnavailableText(e.wanted, e.available, recordedAllowed)}`), buttons: [MODEL_BUTTONS.choose, MODEL_BUTTONS.setKey] };
}
