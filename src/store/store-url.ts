/**
 * Store addresses: which specs are PostgreSQL URLs (anything else is a state folder), and how
 * one is shown (without its secrets).
 * No database code here, so front ends can name a store without loading the client.
 *
 * node-postgres takes a password from the URL's userinfo and from any query parameter of the
 * same name (`?password=`, `?sslpassword=` for the client key): all of them are secrets.
 */
export function isPgUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/** A query parameter that holds a secret: `password`, `sslpassword`, or any other name with "pass" in it. */
export function isSecretParam(name: string): boolean {
  return /pass/i.test(name);
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The query parameters of `url` that hold a secret, by name as written (decoded). */
export function secretParams(url: string): string[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const query = url.slice(q + 1).split('#')[0] ?? '';
  return query
    .split('&')
    .map((kv) => decode(kv.split('=')[0] ?? ''))
    .filter(isSecretParam);
}

/** True when the URL's userinfo holds a password (`user:password@`). */
export function hasUserinfoPassword(url: string): boolean {
  if (/^postgres(ql)?:\/\/[^/@]*:[^/@]*@/i.test(url)) return true;
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}

function redactUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:/@]*):[^@]*@/, '://$1:***@');
  }
}

/** The URL without its secrets (the userinfo's password, and every password-like query parameter's value), for messages and listings. */
export function redactUrl(url: string): string {
  const s = redactUserinfo(url);
  const q = s.indexOf('?');
  if (q < 0) return s;
  const query = s.slice(q + 1).replace(/(^|&)([^=&#]*)=([^&#]*)/g, (m: string, sep: string, k: string) => (isSecretParam(decode(k)) ? `${sep}${k}=***` : m));
  return `${s.slice(0, q)}?${query}`;
}
