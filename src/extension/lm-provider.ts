/**
 * VS Code's Language Model API as a ModelProvider (e.g. Copilot's models): no key needed.
 * Requests are made only inside runs the user started or resumed (the API's consent rule).
 * Usage: the input is counted with model.countTokens, the output from its text and calls;
 * dollars from the price table when the model's family is priced, else $0 (unpriced).
 */
import * as vscode from 'vscode';
import type { ModelReply, ToolCall } from '../core/conversation';
import { ModelError } from '../core/errors';
import { offeredTo } from '../core/tool-schema';
import { LanguageModelUnavailableError } from './logic/model-unavailable';
import type { ModelProvider, ModelRequest } from '../model/provider';
import { PriceTable } from '../model/prices';
import { abortError } from '../model/attempt';
import { lmTurns, type LmPart, type LmTurn } from './logic/lm-request';

const JUSTIFICATION = 'Durable Triage runs the triage agent you started on this workspace.';

/** The chat model: by id, else by family, else (no name) the first one offered. LanguageModelUnavailableError when there is none. */
export async function selectLmModel(name?: string): Promise<vscode.LanguageModelChat> {
  if (name) {
    const byId = await vscode.lm.selectChatModels({ id: name });
    if (byId.length > 0) return byId[0];
    const byFamily = await vscode.lm.selectChatModels({ family: name });
    if (byFamily.length > 0) return byFamily[0];
    const any = await vscode.lm.selectChatModels();
    throw new LanguageModelUnavailableError(
      name,
      any.map((m) => m.id),
    );
  }
  const all = await vscode.lm.selectChatModels();
  if (all.length === 0) throw new LanguageModelUnavailableError(undefined, []);
  return all[0];
}

function vsPart(p: LmPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (p.type) {
    case 'text':
      return new vscode.LanguageModelTextPart(p.text);
    case 'call':
      return new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input);
    case 'result':
      return new vscode.LanguageModelToolResultPart(p.callId, [new vscode.LanguageModelTextPart(p.text)]);
  }
}

function vsMessage(t: LmTurn): vscode.LanguageModelChatMessage {
  const parts = t.parts.map(vsPart);
  return t.role === 'user'
    ? vscode.LanguageModelChatMessage.User(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[])
    : vscode.LanguageModelChatMessage.Assistant(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
}

export class VsCodeLmProvider implements ModelProvider {
  readonly provider = 'vscode-lm';
  readonly model: string;

  constructor(
    private readonly chat: vscode.LanguageModelChat,
    readonly prices: PriceTable = new PriceTable(),
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.model = chat.id;
  }

  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    if (signal.aborted) throw abortError(signal);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = (): void => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const messages = lmTurns(req).map(vsMessage);
      const tools: vscode.LanguageModelChatTool[] = offeredTo(req.tools, undefined).map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.schema,
      }));
      const res = await this.chat.sendRequest(messages, { justification: JUSTIFICATION, ...(tools.length ? { tools } : {}) }, cts.token);
      let text = '';
      const calls: ToolCall[] = [];
      for await (const part of res.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart) {
          calls.push({ id: part.callId || `call_t${req.turn}_${calls.length}`, name: part.name, args: JSON.stringify(part.input ?? {}) });
        }
      }
      if (signal.aborted) throw abortError(signal);
      const inputTokens = await this.countInput(messages, tools, cts.token);
      const outputTokens = await this.count(text + calls.map((c) => `${c.name}${c.args}`).join(''), cts.token);
      const raw = { inputTokens, outputTokens };
      const priced = this.prices.find(this.chat.family) ? this.chat.family : this.prices.find(this.chat.id) ? this.chat.id : undefined;
      if (!priced)
        this.warn(`No price is known for VS Code model ${this.chat.id} (family ${this.chat.family}); its replies count as $0. Add it to durableTriage.prices.`);
      const reply: ModelReply = { calls, usage: { ...raw, dollars: priced ? this.prices.dollars(priced, raw) : 0 }, model: this.chat.id };
      if (text !== '') reply.text = text;
      return reply;
    } catch (e) {
      if (signal.aborted) throw abortError(signal);
      if (e instanceof vscode.LanguageModelError) {
        const hint =
          e.code === vscode.LanguageModelError.NoPermissions.name
            ? ' Allow Durable Triage to use the model when VS Code asks, then resume the run.'
            : e.code === vscode.LanguageModelError.NotFound.name
              ? ' The model is gone; pick another one and start again.'
              : ' Resume the run to try again.';
        throw new ModelError(`VS Code language model ${this.chat.id}: ${e.message} (${e.code}).${hint}`, { cause: e });
      }
      throw e;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  private async count(text: string, token: vscode.CancellationToken): Promise<number> {
    if (text === '') return 0;
    return this.chat.countTokens(text, token);
  }

  private async countInput(
    messages: vscode.LanguageModelChatMessage[],
    tools: vscode.LanguageModelChatTool[],
    token: vscode.CancellationToken,
  ): Promise<number> {
    let n = 0;
    for (const m of messages) n += await this.chat.countTokens(m, token);
    if (tools.length) n += await this.count(JSON.stringify(tools), token);
    return n;
  }
}
