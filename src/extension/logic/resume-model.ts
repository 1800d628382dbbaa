/**
 * Which model a run is resumed with in the editor: the one it was started with (its saved
 * config), found again the editor's way (the VS Code model by name, API keys from the
 * secret store). The recorded demo needs nothing: the job rebuilds it from the state. A saved
 * base URL that cannot work (a user:password@ in it) is refused here, before a key is asked for.
 */
import { checkBaseUrl } from '../../model/base-url';
import { savedBaseUrl, savedBaseUrlFrom } from '../../model/provider-config';

export type ResumeModel =
  | { kind: 'recorded' }
  | { kind: 'vscode-lm'; model: string }
  | { kind: 'keyed'; provider: 'anthropic' | 'openai'; model: string; baseUrl?: string }
  | { kind: 'unknown'; provider: string };

export function resumeModel(config: { provider: string; model: string; options?: Record<string, string> }): ResumeModel {
  switch (config.provider) {
    case 'recorded':
      return { kind: 'recorded' };
    case 'vscode-lm':
      return { kind: 'vscode-lm', model: config.model };
    case 'anthropic':
    case 'openai': {
      const r: ResumeModel = { kind: 'keyed', provider: config.provider, model: config.model };
      const saved = savedBaseUrl(config.options);
      if (saved) r.baseUrl = checkBaseUrl(saved, savedBaseUrlFrom());
      return r;
    }
    default:
      return { kind: 'unknown', provider: config.provider };
  }
}
