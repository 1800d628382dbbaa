/**
 * A scripted model on the Anthropic wire on 127.0.0.1 that answers by the conversation's place,
 * not by the request's order: a request whose messages hold k assistant turns gets the script's
 * k-th reply. A process killed after a request was answered but before its reply was saved asks
 * again and gets the same reply, so lives killed at any moment replay the same conversation (the
 * index-ordered fake-server of test/model/support would hand the rerun the next turn instead).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicFrames } from '../model/support/wire';

/** One turn: a tool call (name and arguments) or the final text. */
export type Turn = { tool: string; args: Record<string, unknown> } | { text: string };

export interface TurnModel {
  url: string;
  /** How many requests asked for each turn (index: the turn). */
  asked: number[];
  /** The tool results the model was last sent (the longest conversation it was asked to continue), in order: what the model saw of each call. */
  results(): { toolUseId: string; text: string; isError: boolean }[];
  close(): Promise<void>;
}

export async function startTurnModel(script: Turn[]): Promise<TurnModel> {
  const asked: number[] = script.map(() => 0);
  let longest: { role?: string; content?: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let k = -1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: { role?: string; content?: unknown }[] };
        k = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
        if ((body.messages ?? []).length >= longest.length) longest = body.messages ?? [];
      } catch {
        k = -1;
      }
      const turn = script[k];
      if (!turn) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `no scripted turn ${k}` } }));
        return;
      }
      asked[k]++;
      const frames = anthropicFrames(
        'tool' in turn ? [{ tool: { id: `toolu_${k}`, name: turn.tool, parts: [JSON.stringify(turn.args)] } }] : [{ text: [turn.text] }],
      );
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(frames.join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    results: () => {
      const out: { toolUseId: string; text: string; isError: boolean }[] = [];
      for (const m of longest) {
        if (m.role !== 'user' || !Array.isArray(m.content)) continue;
        for (const b of m.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) {
          if (b.type !== 'tool_result') continue;
          const text =
            typeof b.content === 'string' ? b.content : Array.isArray(b.content) ? (b.content as { text?: string }[]).map((c) => c.text ?? '').join('') : '';
          out.push({ toolUseId: b.tool_use_id ?? '', text, isError: b.is_error === true });
        }
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
