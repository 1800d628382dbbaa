/**
 * A TCP proxy to the test server's unix socket that can partition the network: cut() stops
 * delivering bytes in both directions (they are held, as a network that is down holds nothing
 * back from the sender's point of view: the sender's writes succeed, nothing arrives), heal()
 * delivers what was held, in order, even to a server whose client side has gone meanwhile. So
 * a statement sent during the partition reaches the server only after it healed: late.
 */
import * as net from 'node:net';
import * as path from 'node:path';

export interface PartitionProxy {
  /** postgres://triage@127.0.0.1:<port>/<db> for a database of the server. */
  url(database: string): string;
  cut(): void;
  /** Delivers what was held; returns the bytes that went to the server. */
  heal(): number;
  close(): Promise<void>;
}

interface Pipe {
  client: net.Socket;
  server: net.Socket;
  toServer: Buffer[];
  toClient: Buffer[];
  clientGone: boolean;
}

export async function partitionProxy(socketDir: string, port: number): Promise<PartitionProxy> {
  const pipes = new Set<Pipe>();
  let down = false;
  const srv = net.createServer((client) => {
    const server = net.connect({ path: path.join(socketDir, `.s.PGSQL.${port}`) });
    const p: Pipe = { client, server, toServer: [], toClient: [], clientGone: false };
    pipes.add(p);
    client.on('data', (d: Buffer) => (down ? p.toServer.push(d) : server.write(d)));
    server.on('data', (d: Buffer) => (down ? p.toClient.push(d) : client.write(d)));
    client.on('close', () => {
      p.clientGone = true;
      if (!down) server.end();
    });
    server.on('close', () => client.destroy());
    client.on('error', () => undefined);
    server.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const tcpPort = (srv.address() as net.AddressInfo).port;
  return {
    url: (db) => `postgres://triage@127.0.0.1:${tcpPort}/${db}`,
    cut() {
      down = true;
    },
    heal() {
      down = false;
      let bytes = 0;
      for (const p of pipes) {
        for (const b of p.toServer.splice(0)) {
          bytes += b.length;
          p.server.write(b);
        }
        if (!p.clientGone) for (const b of p.toClient.splice(0)) p.client.write(b);
        // A client that left during the partition: its late bytes are delivered, then its server
        // side ends (after them: the server reads them all, answers them, then sees the end).
        if (p.clientGone) p.server.end();
      }
      return bytes;
    },
    async close() {
      for (const p of pipes) {
        p.client.destroy();
        p.server.destroy();
      }
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}
