/**
 * Whether a URL may become a link in the Run panel: http(s) only. The transcript's views make
 * links of http(s) URLs alone; the panel checks again, so a saved value of any other scheme
 * (javascript:, command:, file:, vscode:) is shown as text, never as something to click.
 */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
