/**
 * PostgreSQL store addresses: which specs are URLs, and how one is shown (without its password).
 * No database code here, so front ends can name a store without loading the client.
 */
export function isPgUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/** The URL without its password, for messages and listings. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:/@]*):[^@]*@/, '://$1:***@');
  }
}
