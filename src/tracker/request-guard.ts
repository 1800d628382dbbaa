/**
 * What the tracker service accepts before it looks at a request, so a web page the user visits
 * cannot use it: the tracker listens on loopback, but a browser can still reach it.
 *
 * - Host must name this server: 127.0.0.1, localhost or [::1] (or the address it is bound to)
 *   with its port. A DNS-rebinding page reaches 127.0.0.1 under its own host name, and is refused.
 * - A request carrying Origin must come from this same origin (a page of another site, or
 *   "null", is refused). The project's own client sends none.
 * - A POST must say Content-Type: application/json, which a cross-site HTML form cannot send.
 *
 * A refusal is a RequestError: 403 for Host and Origin, 415 for the content type.
 */
import type * as http from 'node:http';
import { RequestError } from './input';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The host names (as in a Host header, IPv6 in brackets) a server bound to `boundHost` answers to. */
function ownHostNames(boundHost: string): Set<string> {
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  return new Set([...LOOPBACK_NAMES, bound.toLowerCase()]);
}

/** "host:port" split, or undefined for something that is not one. */
function parseHost(value: string): { name: string; port: string } | undefined {
  if (/[/@?#\s\\]/.test(value)) return undefined;
  try {
    const u = new URL(`http://${value}`);
    return { name: u.hostname.toLowerCase(), port: u.port || '80' };
  } catch {
    return undefined;
  }
}

/** Throws a RequestError (403) for a request whose Host or Origin is not this server. */
export function checkHostAndOrigin(req: http.IncomingMessage, boundHost: string, port: number): void {
  const names = ownHostNames(boundHost);
  const hostHeader = req.headers.host;
  const host = hostHeader === undefined ? undefined : parseHost(hostHeader);
  if (!host || !names.has(host.name) || host.port !== String(port)) {
    throw new RequestError(
      403,
      `Host "${hostHeader ?? ''}" is not this tracker; it answers only to ${[...names].map((n) => `${n}:${port}`).join(', ')} (a page of another site cannot use it)`,
    );
  }
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let same = false;
  try {
    const u = new URL(origin);
    same =
      u.protocol === 'http:' &&
      !u.username &&
      !u.password &&
      u.pathname === '/' &&
      !u.search &&
      !u.hash &&
      names.has(u.hostname.toLowerCase()) &&
      (u.port || '80') === String(port);
  } catch {
    same = false;
  }
  if (!same)
    throw new RequestError(
      403,
      `requests from origin "${origin}" are refused; the tracker takes requests only from its own origin or from clients that send no Origin`,
    );
}

/** Throws a RequestError (415) unless the request's Content-Type is application/json (parameters such as charset allowed). */
export function requireJson(req: http.IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new RequestError(
      415,
      `Content-Type ${req.headers['content-type'] ? `"${req.headers['content-type']}"` : '(none)'} is not accepted; send the issue as JSON with Content-Type: application/json`,
    );
  }
}
