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
  close(): Promise<void>;
}

export async function startTurnModel(script: Turn[]): Promise<TurnModel> {
  const asked: number[] = script.map(() => 0);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let k = -1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: { role?: string }[] };
        k = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
