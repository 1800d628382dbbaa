/** An MCP server started over Streamable HTTP for a test: a child process, its port read from what it says once it listens. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import type { TestContext } from 'node:test';

export interface HttpServer {
  url: string;
  child: ChildProcess;
  /** Kills it and waits until it has exited. */
  stop(): Promise<void>;
}

/** A port nobody listens on now (for a server that cannot be told to pick one itself). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Starts `node args` with `env` and resolves once its stderr says "listening on port N" (N: the port it serves /mcp on). */
export function startHttpServer(t: TestContext, args: string[], env: Record<string, string>): Promise<HttpServer> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  t.after(stop);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /listening on port (\d+)/.exec(err);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, child, stop });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened: ${err}`)));
  });
}
